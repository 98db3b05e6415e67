// The capped mode of `pnpm bench` (BENCH_MEMORY=manifest): each service started as its image
// and Kubernetes manifest start it (the image's ENV and `node` flags, the ConfigMap, the
// container's env: NODE_OPTIONS, MALLOC_ARENA_MAX, UV_THREADPOOL_SIZE), its memory limit read
// from the Deployment, and its resident size sampled from /proc while it is driven.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { root } from './common.mjs';

// The YAML parser of the deploy checks (the bench has no dependency of its own for it).
const { parse: parseYaml } = createRequire(join(root, 'tools/deploy-check/package.json'))('yaml');

const UNITS = { Ki: 1 / 1024, Mi: 1, Gi: 1024, K: 1000 / 1024 ** 2, M: 1e6 / 1024 ** 2, G: 1e9 / 1024 ** 2 };

/** A Kubernetes memory quantity (`512Mi`, `1Gi`, `600M`, bytes) in MiB. */
export function quantityMiB(quantity) {
  const m = /^(\d+(?:\.\d+)?)(Ki|Mi|Gi|K|M|G)?$/.exec(String(quantity).trim());
  if (!m) throw new Error(`unsupported memory quantity "${quantity}"`);
  return m[2] ? Number(m[1]) * UNITS[m[2]] : Number(m[1]) / 1024 ** 2;
}

/** The final stage of a Dockerfile: its ENV (name → value) and the `node` flags of its CMD. */
export function imageRuntime(file) {
  const lines = readFileSync(file, 'utf8')
    .replace(/\\\r?\n/g, ' ')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
  const start = lines.findLastIndex((l) => /^FROM\s/i.test(l));
  const env = {};
  let cmd;
  for (const line of lines.slice(start + 1)) {
    const [, instruction, args = ''] = /^(\w+)\s+(\S.*)?$/.exec(line) ?? [];
    if (/^ENV$/i.test(instruction)) {
      for (const [, k, quoted, bare] of args.matchAll(/(?<!\w)([A-Za-z_]\w*)=(?:"((?:[^"\\]|\\.)*)"|(\S*))/g)) env[k] = quoted ?? bare;
    }
    if (/^CMD$/i.test(instruction)) cmd = JSON.parse(args);
  }
  if (!cmd || cmd[0] !== 'node') throw new Error(`${file}: expected an exec-form CMD starting with node`);
  return { env, nodeArgs: cmd.slice(1, -1), script: cmd.at(-1) };
}

/** What the runtime (not the service) reads from the environment: Node, glibc's malloc, libuv. */
export const RUNTIME_ENV = ['NODE_OPTIONS', 'MALLOC_ARENA_MAX', 'UV_THREADPOOL_SIZE'];

/** How the image of `name` starts `node`: its CMD flags and the runtime's part of its ENV. */
export function imageProcess(name) {
  const image = imageRuntime(join(root, 'docker', `${name}.Dockerfile`));
  const env = Object.fromEntries(Object.entries(image.env).filter(([k]) => RUNTIME_ENV.includes(k)));
  return { nodeArgs: image.nodeArgs, env };
}

/** A service's container as its base manifests run it: memory limit, ConfigMap literals, env. */
export function manifestRuntime(name) {
  const dir = join(root, 'k8s/base', name);
  const deployment = parseYaml(readFileSync(join(dir, 'deployment.yaml'), 'utf8'));
  const container = deployment.spec.template.spec.containers.find((c) => c.name === name);
  const limit = container?.resources?.limits?.memory;
  if (!limit) throw new Error(`k8s/base/${name}/deployment.yaml: no resources.limits.memory for container ${name}`);
  const env = {};
  const kustomization = parseYaml(readFileSync(join(dir, 'kustomization.yaml'), 'utf8'));
  const generator = kustomization.configMapGenerator?.find((g) => g.name === `${name}-config`);
  for (const literal of generator?.literals ?? []) {
    const at = literal.indexOf('=');
    env[literal.slice(0, at)] = literal.slice(at + 1);
  }
  for (const e of container.env ?? []) if (e.value !== undefined) env[e.name] = String(e.value);
  return { limitMiB: quantityMiB(limit), limit, env };
}

/**
 * How the capped side of `name` starts: the image's `node` flags and ENV, then the manifest's
 * ConfigMap and container env on top (as Kubernetes does), without the image's PORT/HOST
 * (the bench gives its own). The bench's own settings (stores, LOG_LEVEL, rate limit off)
 * still win over these when a case starts the process; `overridden` lists which.
 */
export function cappedRuntime(name, benchEnv) {
  const image = imageRuntime(join(root, 'docker', `${name}.Dockerfile`));
  const manifest = manifestRuntime(name);
  const env = { ...image.env, ...manifest.env };
  for (const k of ['PORT', 'HOST']) delete env[k];
  const overridden = Object.keys(env).filter((k) => k in benchEnv && benchEnv[k] !== env[k]);
  return { nodeArgs: image.nodeArgs, env, limitMiB: manifest.limitMiB, limit: manifest.limit, overridden };
}

/** VmRSS and VmHWM of a process in MiB, from /proc/<pid>/status (undefined once it is gone). */
export function residentMiB(pid) {
  let status;
  try {
    status = readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return undefined;
  }
  const lines = status.split('\n');
  const kb = (field) => {
    const line = lines.find((l) => l.startsWith(`${field}:`));
    return line === undefined ? NaN : Number.parseInt(line.slice(field.length + 1).trim(), 10);
  };
  return { rss: kb('VmRSS') / 1024, hwm: kb('VmHWM') / 1024 };
}

/** Samples a process's VmRSS every `everyMs`; `peak()` is the highest sample since the last `reset()`. */
export class RssSampler {
  constructor(pid, everyMs = 100) {
    this.pid = pid;
    this.max = 0;
    this.samples = 0;
    this.timer = setInterval(() => this.sample(), everyMs);
    this.timer.unref();
    this.sample();
  }

  sample() {
    const now = residentMiB(this.pid);
    if (!now) return;
    this.samples++;
    if (now.rss > this.max) this.max = now.rss;
  }

  reset() {
    this.sample();
    this.max = 0;
    this.samples = 0;
    this.sample();
  }

  /** The highest VmRSS sampled since the last reset (one more sample taken now). */
  peak() {
    this.sample();
    return this.max;
  }

  /** The kernel's own high-water mark of the process's life (VmHWM), for a cross-check. */
  highWater() {
    return residentMiB(this.pid)?.hwm;
  }

  stop() {
    clearInterval(this.timer);
  }
}
