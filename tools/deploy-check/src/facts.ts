import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

/** The repository root. */
export const ROOT = resolve(__dirname, '../../..');

export type ServiceName = 'account' | 'location';
export const SERVICES: readonly ServiceName[] = ['account', 'location'];

export interface Route {
  method: string;
  path: string;
}

/** What a service really serves and reads, derived from its sources (never a copied list). */
export interface ServiceFacts {
  name: ServiceName;
  /** `apps/<name>`, relative to the root. */
  appDir: string;
  /** The keys of the service's config class (`AccountConfig` / `LocationConfig`), inherited ones included. */
  configKeys: string[];
  /** Every environment variable the service reads: the config keys and the `env.X` reads of its code and libs. */
  envNames: Set<string>;
  /** The config class's default `PORT`. */
  defaultPort: number;
  /** Routes declared by the controllers of the app and of the workspace libs it depends on. */
  routes: Route[];
  /** What `tsc -p tsconfig.build.json` emits for `src/main.ts`, relative to the app folder (`dist/main.js`). */
  mainOutput: string;
  /** The emitted file of another source of the app (e.g. `src/database/migrate.ts`), relative to the app folder. */
  outputOf(source: string): string;
}

const cache = new Map<ServiceName, ServiceFacts>();

export function serviceFacts(name: ServiceName): ServiceFacts {
  let facts = cache.get(name);
  if (!facts) {
    facts = deriveFacts(name);
    cache.set(name, facts);
  }
  return facts;
}

function deriveFacts(name: ServiceName): ServiceFacts {
  const appDir = `apps/${name}`;
  const sourceDirs = [join(ROOT, appDir, 'src'), ...workspaceLibsOf(join(ROOT, appDir)).map((lib) => join(lib, 'src'))];
  const files = sourceDirs.flatMap((dir) => tsFiles(dir));
  const { keys, defaultPort } = configClassFacts(name);
  const envNames = new Set<string>([...keys, ...files.flatMap((file) => envReads(file))]);
  const build = ts.getParsedCommandLineOfConfigFile(join(ROOT, appDir, 'tsconfig.build.json'), {}, parseHost());
  if (!build) throw new Error(`cannot read ${appDir}/tsconfig.build.json`);
  const outputOf = (source: string): string => {
    const file = join(ROOT, appDir, source);
    if (!build.fileNames.map((f) => resolve(f)).includes(file)) throw new Error(`${appDir}/${source} is not part of the build`);
    const js = ts.getOutputFileNames(build, file, false).find((f) => f.endsWith('.js'));
    if (!js) throw new Error(`the build emits no JavaScript for ${appDir}/${source}`);
    return relative(join(ROOT, appDir), js);
  };
  return {
    name,
    appDir,
    configKeys: keys,
    envNames,
    defaultPort,
    routes: files.flatMap((file) => controllerRoutes(file)),
    mainOutput: outputOf('src/main.ts'),
    outputOf,
  };
}

/** Folders of the `@geoaccount/*` packages an app depends on, transitively. */
function workspaceLibsOf(packageDir: string, seen = new Set<string>()): string[] {
  const pkg = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
  for (const dep of Object.keys(pkg.dependencies ?? {})) {
    if (!dep.startsWith('@geoaccount/')) continue;
    const dir = join(ROOT, 'libs', dep.slice('@geoaccount/'.length));
    if (!existsSync(dir) || seen.has(dir)) continue;
    seen.add(dir);
    workspaceLibsOf(dir, seen);
  }
  return [...seen];
}

function tsFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const entry of readdirSync(dir)) {
    const full = join(dir, entry);
    if (statSync(full).isDirectory()) out.push(...tsFiles(full));
    else if (entry.endsWith('.ts') && !entry.endsWith('.spec.ts') && !entry.endsWith('.d.ts')) out.push(full);
  }
  return out;
}

function parseHost(): ts.ParseConfigFileHost {
  return { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => { throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n')); } };
}

function sourceOf(file: string): ts.SourceFile {
  return ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2023, true);
}

/**
 * The config class's properties through the type checker (so that a base class such as
 * `OperationsConfig` counts), and the default of `PORT`.
 */
function configClassFacts(name: ServiceName): { keys: string[]; defaultPort: number } {
  const file = join(ROOT, 'apps', name, 'src', 'config', `${name}.config.ts`);
  const base = ts.getParsedCommandLineOfConfigFile(join(ROOT, 'tsconfig.base.json'), {}, parseHost());
  if (!base) throw new Error('cannot read tsconfig.base.json');
  const program = ts.createProgram([file], { ...base.options, noEmit: true });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(file);
  if (!source) throw new Error(`cannot read ${file}`);
  const className = `${name[0]!.toUpperCase()}${name.slice(1)}Config`;
  const declaration = source.statements.find((s): s is ts.ClassDeclaration => ts.isClassDeclaration(s) && s.name?.text === className);
  if (!declaration?.name) throw new Error(`${file} declares no class ${className}`);
  const type = checker.getDeclaredTypeOfSymbol(checker.getSymbolAtLocation(declaration.name)!);
  const keys = checker
    .getPropertiesOfType(type)
    .filter((p) => !(p.flags & ts.SymbolFlags.Method))
    .map((p) => p.getName());
  const port = checker.getPropertyOfType(type, 'PORT')?.valueDeclaration;
  const initializer = port && ts.isPropertyDeclaration(port) ? port.initializer : undefined;
  if (!initializer || !ts.isNumericLiteral(initializer)) throw new Error(`${className}.PORT has no numeric default`);
  return { keys, defaultPort: Number(initializer.text) };
}

const ENV_NAME = /^[A-Z][A-Z0-9_]*$/;

/** Names read as `process.env.X`, `env.X` or `env['X']` in a file. */
function envReads(file: string): string[] {
  const names: string[] = [];
  const isEnv = (e: ts.Expression) =>
    (ts.isIdentifier(e) && e.text === 'env') || (ts.isPropertyAccessExpression(e) && e.name.text === 'env' && ts.isIdentifier(e.expression) && e.expression.text === 'process');
  const visit = (node: ts.Node): void => {
    if (ts.isPropertyAccessExpression(node) && isEnv(node.expression) && ENV_NAME.test(node.name.text)) names.push(node.name.text);
    if (ts.isElementAccessExpression(node) && isEnv(node.expression) && ts.isStringLiteral(node.argumentExpression) && ENV_NAME.test(node.argumentExpression.text)) {
      names.push(node.argumentExpression.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(sourceOf(file));
  return names;
}

const HTTP_DECORATORS: Record<string, string> = { Get: 'GET', Post: 'POST', Put: 'PUT', Delete: 'DELETE', Patch: 'PATCH', Head: 'HEAD', Options: 'OPTIONS' };

/** The prefix `@AdminController` puts before its path (apps/account/src/admin-sessions/admin-controller.ts). */
const ADMIN_PREFIX = 'admin/v1';

/** `@Controller(prefix)` × `@Get(path)`… routes of the classes of a file, with constant prefixes resolved. */
function controllerRoutes(file: string): Route[] {
  const source = sourceOf(file);
  const constants = stringConstants(file, source);
  const routes: Route[] = [];
  for (const statement of source.statements) {
    if (!ts.isClassDeclaration(statement)) continue;
    // Nest's @Controller, or the service's own wrappers of it: @AccountController(path) takes the
    // whole path, @AdminController(path) a path under the admin API's prefix.
    const admin = decoratorCall(statement, 'AdminController');
    const controller = decoratorCall(statement, 'Controller') ?? decoratorCall(statement, 'AccountController') ?? admin;
    if (!controller) continue;
    const prefix = admin ? joinPath(ADMIN_PREFIX, pathArgument(admin, constants)) : pathArgument(controller, constants);
    for (const member of statement.members) {
      if (!ts.isMethodDeclaration(member)) continue;
      for (const [decorator, method] of Object.entries(HTTP_DECORATORS)) {
        const call = decoratorCall(member, decorator);
        if (call) routes.push({ method, path: joinPath(prefix, pathArgument(call, constants)) });
      }
    }
  }
  return routes;
}

function decoratorCall(node: ts.HasDecorators, name: string): ts.CallExpression | undefined {
  for (const decorator of ts.getDecorators(node) ?? []) {
    const e = decorator.expression;
    if (ts.isCallExpression(e) && ts.isIdentifier(e.expression) && e.expression.text === name) return e;
  }
  return undefined;
}

function pathArgument(call: ts.CallExpression, constants: Map<string, string>): string {
  const arg = call.arguments[0];
  if (!arg) return '';
  if (ts.isStringLiteralLike(arg)) return arg.text;
  if (ts.isIdentifier(arg) && constants.has(arg.text)) return constants.get(arg.text)!;
  if (ts.isTemplateExpression(arg)) {
    let out = arg.head.text;
    for (const span of arg.templateSpans) {
      if (!ts.isIdentifier(span.expression) || !constants.has(span.expression.text)) throw new Error(`cannot resolve a route path in ${call.getSourceFile().fileName}`);
      out += constants.get(span.expression.text)! + span.literal.text;
    }
    return out;
  }
  if (ts.isObjectLiteralExpression(arg)) {
    const path = arg.properties.find((p): p is ts.PropertyAssignment => ts.isPropertyAssignment(p) && p.name.getText() === 'path');
    if (path && ts.isStringLiteralLike(path.initializer)) return path.initializer.text;
  }
  throw new Error(`cannot resolve the route path ${arg.getText()} in ${call.getSourceFile().fileName}`);
}

/** String constants a file declares or imports from a relative module (e.g. `ACCOUNT_API_PREFIX`). */
function stringConstants(file: string, source: ts.SourceFile, depth = 0): Map<string, string> {
  const constants = new Map<string, string>();
  for (const statement of source.statements) {
    if (ts.isVariableStatement(statement)) {
      for (const d of statement.declarationList.declarations) {
        if (ts.isIdentifier(d.name) && d.initializer && ts.isStringLiteralLike(d.initializer)) constants.set(d.name.text, d.initializer.text);
      }
    }
    if (depth < 2 && ts.isImportDeclaration(statement) && ts.isStringLiteral(statement.moduleSpecifier) && statement.moduleSpecifier.text.startsWith('.')) {
      const target = resolve(dirname(file), `${statement.moduleSpecifier.text}.ts`);
      if (!existsSync(target)) continue;
      const imported = stringConstants(target, sourceOf(target), depth + 1);
      const bindings = statement.importClause?.namedBindings;
      if (bindings && ts.isNamedImports(bindings)) {
        for (const element of bindings.elements) {
          const value = imported.get((element.propertyName ?? element.name).text);
          if (value !== undefined) constants.set(element.name.text, value);
        }
      }
    }
  }
  return constants;
}

function joinPath(...parts: string[]): string {
  const joined = parts
    .map((p) => p.replace(/^\/+|(?<!\/)\/+$/g, ''))
    .filter((p) => p !== '')
    .join('/');
  return `/${joined}`;
}

/** True when the service answers GET on this path (no path parameters in probe paths). */
export function servesGet(facts: ServiceFacts, path: string): boolean {
  return facts.routes.some((r) => r.method === 'GET' && r.path === path);
}
