/**
 * The event counts `pnpm bench` reads with `perf stat` (bench/lib/counters.mjs, BENCH_PERF_STAT):
 * what it asks for, and what it reads back, including the host without the CPU's counters.
 */
import { resolve } from 'node:path';

interface CountersModule {
  DEFAULT_EVENTS: string[];
  counterEvents(value: string | undefined): string[];
  parsePerfStat(text: string): Record<string, number>;
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
});
