import { type AuthNode, effectiveAuths, holdsAuth } from './effective-auths';

function authMap(...nodes: [id: string, state: string | null, parent: string | null][]): Map<string, AuthNode> {
  return new Map(nodes.map(([authId, authState, parentAuthId]) => [authId, { authId, authState, parentAuthId }]));
}

describe('effectiveAuths', () => {
  const auths = authMap(['A', '1', ''], ['B', '1', 'A'], ['C', '0', ''], ['D', '1', null], ['E', null, null]);

  it('unites direct and group auths, deduplicated, direct first', () => {
    const result = effectiveAuths(
      {
        direct: ['B', 'A'],
        groups: [
          { groupId: 'g1', authIds: ['A', 'D'] },
          { groupId: 'g2', authIds: ['D'] },
        ],
      },
      auths,
    );
    expect([...result]).toEqual([
      ['B', 'direct'],
      ['A', 'direct'],
      ['D', 'group:g1'],
    ]);
  });

  it('keeps only auths in state 1 that exist', () => {
    const result = effectiveAuths({ direct: ['C', 'E', 'missing'], groups: [{ groupId: 'g', authIds: ['C', 'B'] }] }, auths);
    expect([...result]).toEqual([['B', 'group:g']]);
  });

  it('is empty without grants', () => {
    expect(effectiveAuths({ direct: [], groups: [] }, auths).size).toBe(0);
  });
});

describe('holdsAuth', () => {
  // root > mid > leaf, root2 (disabled) > leaf2, off (disabled)
  const auths = authMap(
    ['root', '1', ''],
    ['mid', '1', 'root'],
    ['leaf', '1', 'mid'],
    ['root2', '0', ''],
    ['leaf2', '1', 'root2'],
    ['off', '0', 'root'],
    ['other', '1', null],
  );

  it('holds an effective auth with its grant', () => {
    expect(holdsAuth('mid', new Map([['mid', 'direct']]), auths, 63)).toEqual({ has: true, via: 'direct' });
    expect(holdsAuth('mid', new Map([['mid', 'group:g']]), auths, 63)).toEqual({ has: true, via: 'group:g' });
  });

  it('holds a descendant of an effective auth, naming the nearest ancestor', () => {
    expect(holdsAuth('leaf', new Map([['root', 'direct']]), auths, 63)).toEqual({ has: true, via: 'ancestor:root' });
    expect(
      holdsAuth(
        'leaf',
        new Map([
          ['root', 'direct'],
          ['mid', 'group:g'],
        ]),
        auths,
        63,
      ),
    ).toEqual({ has: true, via: 'ancestor:mid' });
  });

  it("prefers the auth's own grant to an ancestor", () => {
    expect(
      holdsAuth(
        'leaf',
        new Map([
          ['root', 'direct'],
          ['leaf', 'group:g'],
        ]),
        auths,
        63,
      ),
    ).toEqual({ has: true, via: 'group:g' });
  });

  it('does not hold an ancestor of an effective auth, nor an unrelated one', () => {
    expect(holdsAuth('root', new Map([['leaf', 'direct']]), auths, 63)).toEqual({ has: false, via: null });
    expect(holdsAuth('other', new Map([['root', 'direct']]), auths, 63)).toEqual({ has: false, via: null });
  });

  it('never holds a disabled or unknown auth', () => {
    expect(holdsAuth('off', new Map([['root', 'direct']]), auths, 63)).toEqual({ has: false, via: null });
    expect(holdsAuth('nope', new Map([['root', 'direct']]), auths, 63)).toEqual({ has: false, via: null });
  });

  it('does not pass a grant down through a disabled auth', () => {
    const chain = authMap(['top', '1', ''], ['gate', '0', 'top'], ['below', '1', 'gate']);
    expect(holdsAuth('below', new Map([['top', 'direct']]), chain, 63)).toEqual({ has: false, via: null });
  });

  it('follows at most maxAncestors ancestors', () => {
    // a1 (root) > a2 > ... > a5
    const chain = authMap(['a1', '1', ''], ['a2', '1', 'a1'], ['a3', '1', 'a2'], ['a4', '1', 'a3'], ['a5', '1', 'a4']);
    const grant = new Map([['a1', 'direct' as const]]);
    expect(holdsAuth('a5', grant, chain, 4)).toEqual({ has: true, via: 'ancestor:a1' });
    expect(holdsAuth('a5', grant, chain, 3)).toEqual({ has: false, via: null });
    expect(holdsAuth('a4', grant, chain, 3)).toEqual({ has: true, via: 'ancestor:a1' });
  });

  it('stops on a parent cycle', () => {
    const cyclic = authMap(['x', '1', 'y'], ['y', '1', 'x']);
    expect(holdsAuth('x', new Map(), cyclic, 63)).toEqual({ has: false, via: null });
  });
});
