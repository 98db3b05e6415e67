// The framework floor: hello-world JSON from bare node:http and from a minimal NestJS app on
// Express, so the cost of the services' own work on top of the framework is visible.
import { join } from 'node:path';
import { benchDir } from '../lib/common.mjs';

const hello = { path: '/hello', expectBody: ['"message":"hello"'] };

export function floorCases() {
  return [
    {
      id: 'floor-http',
      title: 'floor: node:http hello-world',
      prepare: async () => ({
        own: { script: join(benchDir, 'baselines/hello-http.mjs'), spec: hello },
        notes: 'the limit of a hand-written server',
      }),
    },
    {
      id: 'floor-nest',
      title: 'floor: NestJS/Express hello-world',
      prepare: async () => ({
        own: { script: join(benchDir, 'baselines/hello-nest.mjs'), spec: hello },
        baseline: { script: join(benchDir, 'baselines/hello-http.mjs'), spec: hello },
        notes: 'the Nest floor; ratio = Nest / node:http',
      }),
    },
  ];
}
