import { runInNewContext } from 'node:vm';
import { isUnavailableError } from './exception-filter';

describe('isUnavailableError', () => {
  it('recognises driver errors of a server that is down, wrapped or not', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    expect(isUnavailableError(refused)).toBe(true);
    expect(
      isUnavailableError(Object.assign(new Error('query failed'), { driverError: { code: '57P01', message: 'terminating connection' } })),
    ).toBe(true);
    expect(isUnavailableError(new Error('Connection terminated unexpectedly'))).toBe(true);
  });

  it.each(['53300', '57P01', '57P02', '57P03', '08000', '08001', '08003', '08006', '08P01'])('takes SQLSTATE %s for a database refusing service', (code) => {
    expect(isUnavailableError(Object.assign(new Error('refused'), { code }))).toBe(true);
  });

  it('takes 55000 at connect (ALLOW_CONNECTIONS false) for an outage, but not 55000 of a statement', () => {
    const atConnect = Object.assign(new Error('database "x" is not currently accepting connections'), { code: '55000' });
    expect(isUnavailableError(atConnect)).toBe(true);
    expect(isUnavailableError(Object.assign(new Error('wrapped'), { cause: atConnect }))).toBe(true);
    const ofStatement = Object.assign(new Error('lock not available'), { query: 'SELECT 1', driverError: { code: '55000' } });
    expect(isUnavailableError(ofStatement)).toBe(false);
    expect(isUnavailableError(Object.assign(new Error('x'), { code: '55000', query: 'SELECT 1' }))).toBe(false);
  });

  it('takes the pool giving up on a connection for an outage', () => {
    expect(isUnavailableError(new Error('timeout exceeded when trying to connect'))).toBe(true);
  });

  it('recognises an error created in another realm', () => {
    const foreign = runInNewContext(`Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' })`) as unknown;
    expect(foreign instanceof Error).toBe(false);
    expect(isUnavailableError(foreign)).toBe(true);
  });

  it('does not take other failures for an outage', () => {
    expect(isUnavailableError(Object.assign(new Error('duplicate key'), { code: '23505' }))).toBe(false);
    expect(isUnavailableError(Object.assign(new Error('division by zero'), { code: '22012' }))).toBe(false);
    expect(isUnavailableError(Object.assign(new Error('canceled'), { code: '57014' }))).toBe(false);
    expect(isUnavailableError('ECONNREFUSED')).toBe(false);
    expect(isUnavailableError(null)).toBe(false);
  });
});
