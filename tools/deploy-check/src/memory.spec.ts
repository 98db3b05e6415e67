import { execForm, imageEnv, instructions, parseDockerfile } from './dockerfile';
import { SERVICES } from './facts';
import { type K8sObject, render } from './kubernetes';

interface Container {
  name: string;
  image: string;
  command?: string[];
  args?: string[];
  env?: { name: string; value?: string }[];
  resources?: { limits?: Record<string, string> };
}

const UNITS: Record<string, number> = { Ki: 1 / 1024, Mi: 1, Gi: 1024, K: 1e3 / 2 ** 20, M: 1e6 / 2 ** 20, G: 1e9 / 2 ** 20 };

/** A Kubernetes memory quantity in MiB. */
function mebibytes(quantity: string): number {
  const m = /^(\d+(?:\.\d+)?)(Ki|Mi|Gi|K|M|G)?$/.exec(quantity);
  if (!m) throw new Error(`unsupported memory quantity ${quantity}`);
  return m[2] ? Number(m[1]) * UNITS[m[2]]! : Number(m[1]) / 2 ** 20;
}

/** The value of a V8 size flag (MB) in a list of `node` options, the last one winning. */
function flag(options: string[], name: string): number | undefined {
  const values = options.flatMap((o) => {
    const m = new RegExp(`^--${name}=(\\d+)$`).exec(o);
    return m ? [Number(m[1])] : [];
  });
  return values.at(-1);
}

type PodSpecOf = { spec: { containers: Container[]; initContainers?: Container[] } };
/** The containers (init containers included) of a Deployment's, a Job's or a CronJob's pods. */
const containersOf = (o: K8sObject): Container[] => {
  const spec = o.spec as { template?: PodSpecOf; jobTemplate?: { spec: { template: PodSpecOf } } } | undefined;
  const pod = spec?.template ?? spec?.jobTemplate?.spec.template;
  return pod ? [...(pod.spec.initContainers ?? []), ...pod.spec.containers] : [];
};

/**
 * V8's heap may grow to its old space plus three semi-spaces; the rest of the pod's limit is
 * for what is not V8's heap (code, buffers, the native threads' memory: argon2's hashes).
 */
const HEAP_SHARE_OF_LIMIT = 0.75;

describe.each(SERVICES)('the %s heap within the memory limit', (name) => {
  const { final } = parseDockerfile(`docker/${name}.Dockerfile`);
  const env = imageEnv(final);
  const cmd = execForm(instructions(final, 'CMD').pop()!.args);
  const imageOptions = (env.NODE_OPTIONS ?? '').split(/\s+/).filter(Boolean);

  it('the image caps the old space (NODE_OPTIONS) and the malloc arenas', () => {
    expect(flag(imageOptions, 'max-old-space-size')).toBeGreaterThan(0);
    expect(Number(env.MALLOC_ARENA_MAX)).toBeGreaterThan(0);
    expect(Number(env.MALLOC_ARENA_MAX)).toBeLessThanOrEqual(4);
  });

  it("the image's default is the Deployment's setting (base manifests)", () => {
    const deployment = render(`k8s/base/${name}`).find((o) => o.kind === 'Deployment' && o.metadata.name === name)!;
    const container = containersOf(deployment).find((c) => c.name === name)!;
    expect(container.env?.find((e) => e.name === 'NODE_OPTIONS')?.value).toBe(env.NODE_OPTIONS);
  });

  describe.each([`k8s/base/${name}`, 'k8s/overlays/example'])('(%s)', (dir) => {
    const running = render(dir).flatMap((o) =>
      containersOf(o)
        .filter((c) => c.image.split('/').pop()!.startsWith(`${name}:`))
        .map((c) => ({ where: `${o.kind}/${o.metadata.name}`, container: c })),
    );

    it('runs the image somewhere', () => {
      expect(running.map((r) => r.where)).toContain(`Deployment/${name}`);
    });

    it.each(running.map((r) => [r.where, r.container] as const))(
      '%s: old space + 3 semi-spaces <= 75%% of its memory limit',
      (_where, container) => {
        const limit = container.resources?.limits?.memory;
        expect(limit).toBeDefined();
        // The container's NODE_OPTIONS replace the image's; its `command` replaces the image's CMD.
        const own = container.env?.find((e) => e.name === 'NODE_OPTIONS')?.value;
        const options = [...(own ?? env.NODE_OPTIONS ?? '').split(/\s+/).filter(Boolean), ...(container.command ?? cmd).slice(1)];
        const oldSpace = flag(options, 'max-old-space-size');
        expect(oldSpace).toBeDefined();
        // Set, not left to V8: its default semi-space grows to 64 MB on 64-bit Linux (V8 13).
        const semiSpace = flag(options, 'max-semi-space-size');
        expect(semiSpace).toBeDefined();
        expect(oldSpace! + 3 * semiSpace!).toBeLessThanOrEqual(HEAP_SHARE_OF_LIMIT * mebibytes(limit!));
      },
    );
  });
});
