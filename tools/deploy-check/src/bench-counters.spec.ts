/**
 * The event counts `pnpm bench` reads with `perf stat` (bench/lib/counters.mjs, BENCH_PERF_STAT):
 * what it asks for, and what it reads back, including the host without the CPU's counters; and
 * those of the simulated CPU (BENCH_CACHESIM): the command it runs a service with, and a dump read.
 */
import { resolve } from 'node:path';

interface CountersModule {
  DEFAULT_EVENTS: string[];
  counterEvents(value: string | undefined): string[];
  parsePerfStat(text: string): Record<string, number>;
  CACHESIM_CACHES: Record<string, string>;
  cachesimArgs(value: string | undefined): string[];
  parseCallgrindTotals(text: string): Record<string, number>;
  simulatedCounts(totals: Record<string, number>): Record<string, number>;
  callgrindFunctions(text: string): { events: string[]; functions: Map<string, number[]> };
  codeKind(object: string, fn: string): string;
}

const COUNTERS = resolve(__dirname, '../../../bench/lib/counters.mjs');

// `perf stat -x , -o <file>` as written on a VM (CPU events refused) and on a host with them.
const VM_OUTPUT = `# started on Sat Nov 28 23:32:51 2026

<not supported>,,instructions,0,100.00,,
<not supported>,,cycles,0,100.00,,
1197,,page-faults,15004431270,100.00,0.080,K/sec
5823,,context-switches,15004431270,100.00,0.388,K/sec
6038.29,msec,task-clock,15004431270,100.00,0.402,CPUs utilized
`;
const HOST_OUTPUT = `# started on Sat Nov 28 23:40:00 2026

812345678,,instructions:u,1000,100.00,1.52,insn per cycle
534123456,,cycles:u,1000,100.00,,
<not counted>,,cache-misses,0,0.00,,
`;

// The head and tail of a callgrind dump of one thread (`--cache-sim=yes --separate-threads=yes`).
const CALLGRIND_DUMP = `version: 1
creator: callgrind-3.19.0
pid: 11219
cmd:  node main.js
part: 2
thread: 1

desc: I1 cache: 32768 B, 64 B, 8-way associative
desc: D1 cache: 49152 B, 64 B, 12-way associative
desc: LL cache: 2097152 B, 64 B, 16-way associative

positions: line
events: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw
fn=(1) main
0 5 1 1 0 0 0 0 0 0

totals: 180000000 52000000 31000000 420000 910000 260000 12000 30000 9000
`;

// A dump's body by function: compressed names, a call (its inclusive cost is the callee's), JIT code.
const NODE = '/usr/bin/node';
const FUNCTIONS_DUMP = `events: Ir I1mr
ob=(1) ${NODE}
fl=(1) ???
fn=(1) Builtins_LoadIC
0 100 3
+2 50 1
cob=(2) ???
cfi=(2) ???
cfn=(2) 0x0000000028038500
calls=4 0
0 9000 400
fn=(3) v8::internal::Runtime_DefineKeyedOwnPropertyInLiteral(int, unsigned long*, v8::internal::Isolate*)
0 700 20
ob=(2)
fl=(2)
fn=(2)
0 300 30
ob=(1)
fn=(1)
* 7 0
`;

describe('the bench event counts', () => {
  let counters: CountersModule;
  beforeAll(async () => {
    counters = (await import(COUNTERS)) as CountersModule;
  });

  it('asks for nothing when unset, the defaults for 1, and the events listed otherwise', () => {
    expect(counters.counterEvents(undefined)).toEqual([]);
    expect(counters.counterEvents('')).toEqual([]);
    expect(counters.counterEvents('0')).toEqual([]);
    expect(counters.counterEvents('1')).toEqual(counters.DEFAULT_EVENTS);
    expect(counters.DEFAULT_EVENTS).toEqual(expect.arrayContaining(['instructions', 'cycles', 'cache-misses', 'branch-misses']));
    expect(counters.counterEvents(' page-faults, L1-icache-load-misses ')).toEqual(['page-faults', 'L1-icache-load-misses']);
  });

  it('refuses what is not an event name (it goes on a command line)', () => {
    expect(() => counters.counterEvents('cycles;rm -rf /')).toThrow(/not an event name/);
  });

  it('reads counts, decimals and units, and NaN for a counter the host does not have', () => {
    const vm = counters.parsePerfStat(VM_OUTPUT);
    expect(vm.instructions).toBeNaN();
    expect(vm.cycles).toBeNaN();
    expect(vm['page-faults']).toBe(1197);
    expect(vm['context-switches']).toBe(5823);
    expect(vm['task-clock']).toBeCloseTo(6038.29, 2);
  });

  it('names an event as it was asked for, without the user-space modifier perf adds', () => {
    const host = counters.parsePerfStat(HOST_OUTPUT);
    expect(host).toEqual({ instructions: 812345678, cycles: 534123456, 'cache-misses': NaN });
  });

  it('runs a simulated service under callgrind with its cache geometry, overridable, and nothing else from the variable', () => {
    const args = counters.cachesimArgs(undefined);
    expect(args.slice(0, 3)).toEqual(['valgrind', '--tool=callgrind', '--cache-sim=yes']);
    expect(args).toEqual(
      expect.arrayContaining(['--smc-check=all-non-file', '--separate-threads=yes', `--LL=${counters.CACHESIM_CACHES.LL}`]),
    );
    const smaller = counters.cachesimArgs('--LL=1048576,16,64');
    expect(smaller.filter((a) => a.startsWith('--LL='))).toEqual(['--LL=1048576,16,64']);
    expect(() => counters.cachesimArgs('--LL=1;touch /tmp/x')).toThrow(/not a valgrind option/);
    expect(() => counters.cachesimArgs('-v')).toThrow(/not a valgrind option/);
  });

  it("reads a dump's totals and counts its instructions and misses by level", () => {
    const totals = counters.parseCallgrindTotals(CALLGRIND_DUMP);
    expect(totals).toMatchObject({ Ir: 180000000, I1mr: 420000, DLmw: 9000 });
    expect(counters.simulatedCounts(totals)).toEqual({
      instructions: 180000000,
      'L1i misses': 420000,
      'L1d misses': 910000 + 260000,
      'LL misses': 12000 + 30000 + 9000,
    });
    expect(counters.simulatedCounts(counters.parseCallgrindTotals('no dump'))).toEqual({
      instructions: NaN,
      'L1i misses': NaN,
      'L1d misses': NaN,
      'LL misses': NaN,
    });
  });

  it("reads each function's own cost from a dump, not what its calls cost, through compressed names", () => {
    const { events, functions } = counters.callgrindFunctions(FUNCTIONS_DUMP);
    expect(events).toEqual(['Ir', 'I1mr']);
    expect(Object.fromEntries(functions)).toEqual({
      [`${NODE}\tBuiltins_LoadIC`]: [157, 4],
      [`${NODE}\tv8::internal::Runtime_DefineKeyedOwnPropertyInLiteral(int, unsigned long*, v8::internal::Isolate*)`]: [700, 20],
      '???\t0x0000000028038500': [300, 30],
    });
  });

  it('tells JIT code, builtins, the runtime and inline caches, the GC and the rest apart', () => {
    expect(counters.codeKind('???', '0x0000000028038500')).toBe('JIT code');
    expect(counters.codeKind(NODE, 'Builtins_KeyedStoreIC_Megamorphic')).toBe('V8 builtins');
    expect(counters.codeKind(NODE, 'v8::internal::Runtime_DefineKeyedOwnPropertyInLiteral(int)')).toBe(
      'V8 runtime, inline caches, object shapes',
    );
    expect(counters.codeKind(NODE, 'v8::internal::JSObject::MigrateToMap(v8::internal::Isolate*)')).toBe(
      'V8 runtime, inline caches, object shapes',
    );
    expect(counters.codeKind(NODE, 'v8::internal::Scavenger::ScavengePage(v8::internal::MutablePageMetadata*)')).toBe('V8 GC');
    expect(counters.codeKind(NODE, 'v8::HandleScope::HandleScope(v8::Isolate*)')).toBe('V8 other C++');
    expect(counters.codeKind(NODE, 'node::http_parser::Parser::Execute(char const*, unsigned long)')).toBe('Node C++, libuv');
    expect(counters.codeKind('/usr/lib/x86_64-linux-gnu/libc.so.6', 'memmove')).toBe('libc');
  });
});
