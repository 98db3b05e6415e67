import { SingleFlight } from './single-flight';

describe('SingleFlight', () => {
  it('runs concurrent calls of one key once and shares the result', async () => {
    const flights = new SingleFlight<number>();
    let runs = 0;
    let release!: (v: number) => void;
    const fn = () => {
      runs++;
      return new Promise<number>((resolve) => (release = resolve));
    };
    const calls = Array.from({ length: 10 }, () => flights.run('k', fn));
    await Promise.resolve();
    release(42);
    expect(await Promise.all(calls)).toEqual(Array(10).fill(42));
    expect(runs).toBe(1);
    expect(flights.size).toBe(0);
  });

  it('shares a failure, then lets the next call run again', async () => {
    const flights = new SingleFlight<number>();
    let runs = 0;
    const failing = () => {
      runs++;
      return Promise.reject(new Error('down'));
    };
    await expect(Promise.all([flights.run('k', failing), flights.run('k', failing)])).rejects.toThrow('down');
    expect(runs).toBe(1);
    await expect(flights.run('k', () => Promise.resolve(7))).resolves.toBe(7);
  });

  it('keeps keys apart, including a function that throws at once', async () => {
    const flights = new SingleFlight<string>();
    const a = flights.run('a', () => Promise.resolve('A'));
    const b = flights.run('b', () => {
      throw new Error('sync');
    });
    await expect(a).resolves.toBe('A');
    await expect(b).rejects.toThrow('sync');
    expect(flights.size).toBe(0);
  });
});
