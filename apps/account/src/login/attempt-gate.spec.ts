import { AttemptGate, GateTimeoutError } from './attempt-gate';

describe('AttemptGate', () => {
  it('lets `places` holders in per key, the next ones in order as holders leave', async () => {
    const gate = new AttemptGate(2);
    const order: string[] = [];
    await gate.enter('k', 1000);
    await gate.enter('k', 1000);
    const third = gate.enter('k', 1000).then(() => order.push('third'));
    const fourth = gate.enter('k', 1000).then(() => order.push('fourth'));
    await gate.enter('other', 1000); // another key is not held up
    await new Promise((resolve) => setImmediate(resolve));
    expect(order).toEqual([]);
    gate.leave('k');
    await third;
    expect(order).toEqual(['third']);
    gate.leave('k');
    await fourth;
    expect(order).toEqual(['third', 'fourth']);
    for (let i = 0; i < 2; i++) gate.leave('k');
    gate.leave('other');
    expect(gate.size).toBe(0);
  });

  it('fails a waiter after its timeout, and forgets it', async () => {
    const gate = new AttemptGate(1);
    await gate.enter('k', 1000);
    await expect(gate.enter('k', 20)).rejects.toBeInstanceOf(GateTimeoutError);
    gate.leave('k');
    expect(gate.size).toBe(0);
  });
});
