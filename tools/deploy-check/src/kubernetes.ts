import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import ts from 'typescript';
import { parseAllDocuments } from 'yaml';
import { ROOT } from './facts';

/** A rendered Kubernetes object (only the fields the checks read are typed). */
export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  [key: string]: unknown;
}

/** `$KUBECTL`, else `kubectl` on the PATH. */
export function kubectlPath(): string {
  if (process.env.KUBECTL) return process.env.KUBECTL;
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const candidate = join(dir, 'kubectl');
    if (dir && existsSync(candidate)) return candidate;
  }
  throw new Error('kubectl is not installed: run tools/deploy-check/install-kubectl.sh (or set KUBECTL)');
}

/** `kubectl kustomize <dir>`, parsed. */
export function render(dir: string): K8sObject[] {
  const result = spawnSync(kubectlPath(), ['kustomize', join(ROOT, dir)], { encoding: 'utf8', timeout: 60_000 });
  if (result.status !== 0) throw new Error(`kubectl kustomize ${dir} failed: ${result.stderr || result.error?.message}`);
  return parseAllDocuments(result.stdout)
    .map((doc) => {
      if (doc.errors.length > 0) throw new Error(`kubectl kustomize ${dir} printed invalid YAML: ${doc.errors[0]!.message}`);
      return doc.toJS() as K8sObject | null;
    })
    .filter((o): o is K8sObject => o !== null);
}

/** The kubernetes-models module of an apiVersion (`apps/v1` → `kubernetes-models/apps/v1`). */
function modelModule(apiVersion: string): string {
  return `kubernetes-models/${apiVersion}`;
}

/** Validates an object against the Kubernetes OpenAPI schema (kubernetes-models); returns the errors. */
export function schemaErrors(object: K8sObject): string[] {
  let models: Record<string, new (data: unknown) => { validate(): void }>;
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    models = require(modelModule(object.apiVersion)) as typeof models;
  } catch {
    return [`unknown apiVersion ${object.apiVersion}`];
  }
  const Model = models[object.kind];
  if (!Model) return [`unknown kind ${object.kind} in ${object.apiVersion}`];
  try {
    new Model(normalised(object)).validate();
    return [];
  } catch (err) {
    const errors = (err as { errors?: { instancePath: string; message?: string }[] }).errors;
    return errors?.map((e) => `${e.instancePath} ${e.message ?? ''}`) ?? [String(err)];
  }
}

/**
 * kustomize folds long base64 values of Secrets over several lines; the API server ignores
 * those line breaks (Go's base64 decoder does), the schema's "byte" format does not.
 */
function normalised(object: K8sObject): K8sObject {
  if (object.kind !== 'Secret' || typeof object.data !== 'object' || object.data === null) return object;
  const data = Object.fromEntries(Object.entries(object.data as Record<string, string>).map(([k, v]) => [k, v.replace(/\s+/g, '')]));
  return { ...object, data };
}

/**
 * Fields the schema does not know (a typo such as `readinesProbe` passes the OpenAPI
 * schema, which allows additional properties): each object is type-checked as an object
 * literal of its kubernetes-models interface, and TypeScript's excess-property check
 * reports every unknown field, at any depth, with its path.
 */
export function unknownFieldErrors(objects: K8sObject[]): string[] {
  const file = join(ROOT, 'tools/deploy-check/src/rendered-manifests.mts');
  const lines: string[] = [];
  objects.forEach((o, i) => {
    lines.push(`import type { I${o.kind} as T${i} } from '${modelModule(o.apiVersion)}/${o.kind}';`);
  });
  objects.forEach((o, i) => {
    lines.push(`export const object${i}: T${i} = ${JSON.stringify(normalised(o), null, 2)};`);
  });
  const text = lines.join('\n');
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    module: ts.ModuleKind.Node16,
    moduleResolution: ts.ModuleResolutionKind.Node16,
    target: ts.ScriptTarget.ES2022,
    types: [],
  };
  const host = ts.createCompilerHost(options);
  const read = host.getSourceFile.bind(host);
  host.getSourceFile = (name, language, onError) =>
    name === file ? ts.createSourceFile(name, text, language, true) : read(name, language, onError);
  const exists = host.fileExists.bind(host);
  host.fileExists = (name) => name === file || exists(name);
  const program = ts.createProgram([file], options, host);
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const where = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start) : undefined;
    const owner = where ? objectAt(text, where.line, objects) : '';
    return `${owner}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`;
  });
}

/** Which object a line of the generated file belongs to (for readable messages). */
function objectAt(text: string, line: number, objects: K8sObject[]): string {
  const before = text.split('\n').slice(0, line + 1).reverse();
  const match = before.map((l) => /^export const object(\d+)/.exec(l)).find((m) => m);
  const o = match ? objects[Number(match[1])] : undefined;
  return o ? `${o.kind}/${o.metadata.name}` : 'import';
}
