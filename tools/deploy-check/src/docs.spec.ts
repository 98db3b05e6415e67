import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, SERVICES, serviceFacts, servesGet } from './facts';

const doc = readFileSync(join(ROOT, 'docs/operations.md'), 'utf8');

describe('docs/operations.md', () => {
  it.each(SERVICES)('documents every environment variable %s reads', (name) => {
    const facts = serviceFacts(name);
    const missing = [...facts.envNames].filter((env) => !doc.includes(`\`${env}\``));
    expect(missing).toEqual([]);
  });

  it.each(SERVICES)('names endpoints %s really serves', (name) => {
    for (const path of ['/health/live', '/health/ready', '/metrics']) {
      expect(doc).toContain(`\`GET ${path}\``);
      expect(servesGet(serviceFacts(name), path)).toBe(true);
    }
  });
});
