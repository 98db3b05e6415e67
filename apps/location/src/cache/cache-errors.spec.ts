import { cacheErrorReason } from './cache-errors';

describe('cacheErrorReason', () => {
  it.each([
    ['CLUSTERDOWN The cluster is down', 'clusterdown'],
    ['CLUSTERDOWN Hash slot not served', 'clusterdown'],
    ['Too many Cluster redirections. Last error: ReplyError: CLUSTERDOWN The cluster is down', 'redirections'],
    ['Too many Cluster redirections. Last error: ReplyError: MOVED 3999 127.0.0.1:6381', 'redirections'],
    ['Redis command timed out after 250 ms', 'timeout'],
    ['Command timed out', 'timeout'],
    ['connect ECONNREFUSED 127.0.0.1:6379', 'connection'],
    ['Connection is closed.', 'connection'],
    ['None of startup nodes is available', 'connection'],
    ['WRONGTYPE Operation against a key holding the wrong kind of value', 'other'],
  ])('%s → %s', (message, reason) => {
    const err = new Error(message);
    expect(cacheErrorReason(err)).toBe(reason);
  });

  it('takes a system error code as a connection failure', () => {
    expect(cacheErrorReason(Object.assign(new Error('read failed'), { code: 'EHOSTUNREACH' }))).toBe('connection');
    expect(cacheErrorReason('a string')).toBe('other');
  });
});
