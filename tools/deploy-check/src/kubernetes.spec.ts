import { type K8sObject, render, schemaErrors, unknownFieldErrors } from './kubernetes';
import { SERVICES, type ServiceName, serviceFacts, servesGet } from './facts';

interface Probe {
  httpGet?: { path: string; port: number | string };
}
interface Container {
  name: string;
  image: string;
  command?: string[];
  ports?: { name?: string; containerPort: number }[];
  env?: { name: string }[];
  envFrom?: { configMapRef?: { name: string }; secretRef?: { name: string } }[];
  livenessProbe?: Probe;
  readinessProbe?: Probe;
  startupProbe?: Probe;
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  securityContext?: {
    readOnlyRootFilesystem?: boolean;
    allowPrivilegeEscalation?: boolean;
    runAsNonRoot?: boolean;
    capabilities?: { drop?: string[] };
  };
  volumeMounts?: { name: string; mountPath: string }[];
}
interface PodSpec {
  containers: Container[];
  volumes?: { name: string; emptyDir?: object }[];
  securityContext?: { runAsNonRoot?: boolean; runAsUser?: number };
  terminationGracePeriodSeconds?: number;
}
interface PodTemplate {
  metadata: { labels: Record<string, string>; annotations?: Record<string, string> };
  spec: PodSpec;
}

/** Read by the runtime, not by the service: Node's options, glibc's malloc, libuv's thread pool. */
const RUNTIME_ENV = new Set(['NODE_OPTIONS', 'MALLOC_ARENA_MAX', 'UV_THREADPOOL_SIZE']);

/**
 * Variables of the contract's environment table (docs/contract.md §1, §14) that the manifests
 * set for services whose code is being changed to read them; each is accepted until then, and
 * from then on checked like any other (it is then in the facts).
 */
const CONTRACT_ENV: Record<ServiceName, Set<string>> = {
  account: new Set(['METRICS_PORT', 'TRUSTED_PROXIES', 'ADMIN_TOKEN', 'INTERNAL_TOKEN', 'CREDENTIAL_USE_FLUSH_SECONDS']),
  location: new Set(['METRICS_PORT', 'TRUSTED_PROXIES', 'APPS_URL', 'INTERNAL_TOKEN', 'CREDENTIAL_USE_FLUSH_SECONDS']),
};

/** Custom resources of the Prometheus Operator: no bundled schema, checked structurally below. */
const isCustomResource = (o: K8sObject) => o.apiVersion.startsWith('monitoring.coreos.com/');

const RENDERED = ['k8s/base/account', 'k8s/base/location', 'k8s/overlays/example'];
const BASES: Record<ServiceName, string> = { account: 'k8s/base/account', location: 'k8s/base/location' };

const byKind = (objects: K8sObject[], kind: string) => objects.filter((o) => o.kind === kind);
const named = (objects: K8sObject[], kind: string, name: string) => objects.find((o) => o.kind === kind && o.metadata.name === name);
const templateOf = (o: K8sObject) => (o.spec as { template: PodTemplate }).template;
/** A generated ConfigMap or Secret, by the name the manifests use (kustomize appends a hash). */
const generated = (objects: K8sObject[], kind: string, name: string) =>
  objects.find((o) => o.kind === kind && (o.metadata.name === name || o.metadata.name.startsWith(`${name}-`)));

describe.each(RENDERED)('kubectl kustomize %s', (dir) => {
  const objects = render(dir);

  it('renders objects', () => {
    expect(objects.length).toBeGreaterThan(0);
  });

  it('renders only objects valid against the Kubernetes schemas', () => {
    const errors = objects
      .filter((o) => !isCustomResource(o))
      .flatMap((o) => schemaErrors(o).map((e) => `${o.kind}/${o.metadata.name}${e}`));
    expect(errors).toEqual([]);
  });

  it('renders no field the Kubernetes API does not know', () => {
    expect(unknownFieldErrors(objects.filter((o) => !isCustomResource(o)))).toEqual([]);
  });
});

describe.each(SERVICES)('the %s manifests', (name) => {
  const facts = serviceFacts(name);
  const base = render(BASES[name]);
  const overlay = render('k8s/overlays/example');

  describe.each([
    ['base', base],
    ['example overlay', overlay],
  ])('(%s)', (_label, objects) => {
    const deployment = named(objects, 'Deployment', name)!;
    const template = deployment && templateOf(deployment);
    const container = template?.spec.containers.find((c) => c.name === name);
    const configMap = () => generated(objects, 'ConfigMap', `${name}-config`);
    const config = () => (configMap()?.data ?? {}) as Record<string, string>;
    const port = () => Number(config().PORT ?? facts.defaultPort);
    const metricsPort = () => Number(config().METRICS_PORT);

    it('has a Deployment, Service, HorizontalPodAutoscaler and PodDisruptionBudget', () => {
      expect(deployment).toBeDefined();
      expect(container).toBeDefined();
      const labels = template.metadata.labels;
      const selects = (selector: Record<string, string>) => Object.entries(selector).every(([k, v]) => labels[k] === v);
      const service = named(objects, 'Service', name);
      expect(selects((service?.spec as { selector: Record<string, string> }).selector)).toBe(true);
      const pdb = named(objects, 'PodDisruptionBudget', name);
      expect(selects((pdb?.spec as { selector: { matchLabels: Record<string, string> } }).selector.matchLabels)).toBe(true);
      const hpa = named(objects, 'HorizontalPodAutoscaler', name);
      expect((hpa?.spec as { scaleTargetRef: object }).scaleTargetRef).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', name });
      expect((hpa?.spec as { minReplicas: number }).minReplicas).toBeGreaterThanOrEqual(2);
      // no other pod (the migration Job, the other service) is selected by the Service or the budget
      const selector = (service?.spec as { selector: Record<string, string> }).selector;
      for (const other of [...byKind(objects, 'Job'), ...byKind(objects, 'Deployment')].filter((o) => o !== deployment)) {
        expect(Object.entries(selector).every(([k, v]) => templateOf(other).metadata.labels[k] === v)).toBe(false);
      }
    });

    it('probes paths the service serves, on its port', () => {
      const probes = { startupProbe: '/health/live', livenessProbe: '/health/live', readinessProbe: '/health/ready' } as const;
      for (const [probe, expected] of Object.entries(probes)) {
        const get = container![probe as keyof typeof probes]?.httpGet;
        expect(get?.path).toBe(expected);
        expect(servesGet(facts, get!.path)).toBe(true);
        const target = typeof get!.port === 'number' ? get!.port : container!.ports?.find((p) => p.name === get!.port)?.containerPort;
        expect(target).toBe(port());
      }
      // the API port, and /metrics on its own port (METRICS_PORT) that the ingress never routes
      expect(metricsPort()).toBeGreaterThan(0);
      expect(metricsPort()).not.toBe(port());
      expect(container!.ports?.map((p) => [p.name, p.containerPort])).toEqual([
        ['http', port()],
        ['metrics', metricsPort()],
      ]);
      const service = named(objects, 'Service', name)!;
      const targetPort = (service.spec as { ports: { targetPort: number | string }[] }).ports[0]!.targetPort;
      expect(typeof targetPort === 'number' ? targetPort : container!.ports?.find((p) => p.name === targetPort)?.containerPort).toBe(
        port(),
      );
      const annotations = template.metadata.annotations ?? {};
      expect(servesGet(facts, annotations['prometheus.io/path']!)).toBe(true);
      expect(Number(annotations['prometheus.io/port'])).toBe(metricsPort());
      const servicePorts = (service.spec as { ports: { name: string; targetPort: string }[] }).ports;
      expect(servicePorts.map((p) => [p.name, p.targetPort])).toEqual([
        ['http', 'http'],
        ['metrics', 'metrics'],
      ]);
    });

    it('sets only environment variables the service reads, from its ConfigMap and Secret', () => {
      const refs = container!.envFrom ?? [];
      expect(refs.map((r) => r.configMapRef?.name).filter(Boolean)).toEqual([configMap()!.metadata.name]);
      expect(refs.map((r) => r.secretRef?.name).filter(Boolean)).toHaveLength(1);
      const names = [...Object.keys(config()), ...(container!.env ?? []).map((e) => e.name)];
      const secret = generated(objects, 'Secret', refs.find((r) => r.secretRef)!.secretRef!.name.replace(/-[a-z0-9]{10}$/, ''));
      names.push(...Object.keys((secret?.data ?? {}) as object));
      const unread = names.filter((n) => !facts.envNames.has(n) && !RUNTIME_ENV.has(n) && !CONTRACT_ENV[name].has(n));
      expect(unread).toEqual([]);
      // the operations settings are set explicitly
      expect(Object.keys(config())).toEqual(
        expect.arrayContaining(['PORT', 'LOG_LEVEL', 'RATE_LIMIT_PER_MINUTE', 'SHUTDOWN_DRAIN_MS', 'SHUTDOWN_TIMEOUT_MS']),
      );
    });

    it('gives the process time to drain before Kubernetes kills it', () => {
      const grace = (template.spec.terminationGracePeriodSeconds ?? 30) * 1000;
      const timeout = Number(config().SHUTDOWN_TIMEOUT_MS);
      expect(timeout).toBeGreaterThan(Number(config().SHUTDOWN_DRAIN_MS ?? 0));
      expect(grace).toBeGreaterThan(timeout);
    });

    it('runs as non-root on a read-only root filesystem with /tmp on an emptyDir, within resources', () => {
      expect(template.spec.securityContext?.runAsNonRoot).toBe(true);
      expect(template.spec.securityContext?.runAsUser).toBeGreaterThan(0);
      expect(container!.securityContext).toMatchObject({
        readOnlyRootFilesystem: true,
        allowPrivilegeEscalation: false,
        capabilities: { drop: ['ALL'] },
      });
      const tmp = container!.volumeMounts?.find((m) => m.mountPath === '/tmp');
      expect(template.spec.volumes?.find((v) => v.name === tmp?.name)?.emptyDir).toBeDefined();
      expect(Object.keys(container!.resources?.requests ?? {}).sort()).toEqual(['cpu', 'memory']);
      expect(container!.resources?.limits?.memory).toBeDefined();
    });
  });

  it('the example overlay provides the Secret with what the service needs to run in production', () => {
    const deployment = named(overlay, 'Deployment', name)!;
    const container = templateOf(deployment).spec.containers[0]!;
    const secretName = container.envFrom!.find((r) => r.secretRef)!.secretRef!.name;
    const secret = overlay.find((o) => o.kind === 'Secret' && o.metadata.name === secretName);
    expect(secret).toBeDefined();
    const keys = Object.keys(secret!.data as object);
    expect(keys).toEqual(
      expect.arrayContaining([
        'APP_CREDENTIALS',
        'INTERNAL_TOKEN',
        ...(name === 'account' ? ['DATABASE_URL', 'DATABASE_MIGRATION_URL', 'PII_KEYS', 'ADMIN_TOKEN'] : ['REDIS_URL']),
      ]),
    );
  });
});

interface CronJobSpec {
  suspend?: boolean;
  jobTemplate: { spec: { activeDeadlineSeconds?: number; template: PodTemplate & { spec: PodSpec & { restartPolicy?: string } } } };
}
const cronJobPod = (o: K8sObject) => (o.spec as CronJobSpec).jobTemplate.spec.template.spec;

describe('the account migrations', () => {
  const facts = serviceFacts('account');
  for (const dir of ['k8s/base/account', 'k8s/overlays/example']) {
    it(`run in the Deployment's init container, with the service's image and settings: no Job to delete (${dir})`, () => {
      const objects = render(dir);
      const pod = templateOf(named(objects, 'Deployment', 'account')!).spec as PodSpec & { initContainers?: Container[] };
      const app = pod.containers[0]!;
      expect(pod.initContainers?.map((c) => c.name)).toEqual(['migrate']);
      const migrate = pod.initContainers![0]!;
      expect(migrate.command).toEqual(['node', facts.outputOf('src/database/migrate.ts')]);
      expect(migrate.image).toBe(app.image);
      expect(migrate.envFrom).toEqual(app.envFrom);
      expect(migrate.securityContext?.readOnlyRootFilesystem).toBe(true);
      // No Job: an immutable Job pointing at a hash-named ConfigMap would refuse the next apply.
      expect(byKind(objects, 'Job')).toEqual([]);
    });

    it(`can be run ahead, and the key rotation on demand, from suspended CronJobs (changeable by every apply) (${dir})`, () => {
      const objects = render(dir);
      const app = templateOf(named(objects, 'Deployment', 'account')!).spec.containers[0]!;
      const commands = { 'account-migrate': 'src/database/migrate.ts', 'account-rotate-pii': 'src/pii/rotate-pii.ts' };
      for (const [name, source] of Object.entries(commands)) {
        const cron = named(objects, 'CronJob', name)!;
        expect((cron.spec as CronJobSpec).suspend).toBe(true);
        const pod = cronJobPod(cron);
        const container = pod.containers[0]!;
        expect(container.command).toEqual(['node', facts.outputOf(source)]);
        expect(container.image).toBe(app.image);
        expect(container.envFrom).toEqual(app.envFrom);
        expect(pod.restartPolicy).toBe('Never');
        expect(pod.securityContext?.runAsNonRoot).toBe(true);
        expect(container.securityContext?.readOnlyRootFilesystem).toBe(true);
        expect((cron.spec as CronJobSpec).jobTemplate.spec.activeDeadlineSeconds).toBeGreaterThanOrEqual(3600);
      }
    });
  }

  it('the service leaves migrations to the init container', () => {
    const config = generated(render('k8s/base/account'), 'ConfigMap', 'account-config')!.data as Record<string, string>;
    expect(config.DATABASE_AUTO_MIGRATE).toBe('false');
    expect(facts.configKeys).toContain('DATABASE_AUTO_MIGRATE');
  });
});

/**
 * The connections the account service may open at once stay within the PostgreSQL server's
 * `max_connections` (docs/operations.md, "Scale out"): every replica the autoscaler may run plus
 * the rollout's surge, each with its pool, and the Jobs (the migration's 2: one holds the lock,
 * one migrates; the key rotation's pool), below `max_connections` less the superuser's reserve.
 */
describe('the account database connection budget', () => {
  const MIGRATION_CONNECTIONS = 2; // migrationDataSourceOptions: poolSize 2
  for (const dir of ['k8s/base/account', 'k8s/overlays/example']) {
    it(`fits the documented max_connections (${dir})`, () => {
      const objects = render(dir);
      const deployment = named(objects, 'Deployment', 'account')!;
      const annotations = deployment.metadata.annotations ?? {};
      const max = Number(annotations['geoaccount.io/database-max-connections']);
      const reserved = Number(annotations['geoaccount.io/database-reserved-connections'] ?? 3);
      expect(max).toBeGreaterThan(0);
      const config = generated(objects, 'ConfigMap', 'account-config')!.data as Record<string, string>;
      const pool = Number(config.DATABASE_POOL_SIZE ?? 10);
      const hpa = named(objects, 'HorizontalPodAutoscaler', 'account')!.spec as { maxReplicas: number };
      const strategy = (deployment.spec as { strategy?: { rollingUpdate?: { maxSurge?: number | string } } }).strategy;
      const surgeSetting = strategy?.rollingUpdate?.maxSurge ?? '25%';
      const surge =
        typeof surgeSetting === 'number'
          ? surgeSetting
          : Math.ceil((hpa.maxReplicas * Number(String(surgeSetting).replace('%', ''))) / 100);
      const jobPool = (name: string) => {
        const job = named(objects, 'CronJob', name);
        if (!job) return 0;
        const env = cronJobPod(job).containers[0]!.env as { name: string; value?: string }[] | undefined;
        const own = env?.find((e) => e.name === 'DATABASE_POOL_SIZE')?.value;
        return Number(own ?? pool);
      };
      // The migration: an init container of a surge pod (counted in its pool's stead while it
      // runs) or the on-demand Job; the key rotation's Job.
      const jobs = (named(objects, 'CronJob', 'account-migrate') ? MIGRATION_CONNECTIONS : 0) + jobPool('account-rotate-pii');
      const budget = (hpa.maxReplicas + surge) * pool + jobs;
      process.stdout.write(
        `${dir}: (${hpa.maxReplicas} replicas + ${surge} surge) x ${pool} + Jobs ${jobs} = ${budget} of ${max} - ${reserved}\n`,
      );
      expect(budget).toBeLessThanOrEqual(max - reserved);
    });
  }
});
