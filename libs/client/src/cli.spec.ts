import { main } from './cli';

describe('cli', () => {
  it('prints usage and exits 2 for an unknown command', async () => {
    const write = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    await expect(main(['account', 'nope'], {})).resolves.toBe(2);
    expect(String(write.mock.calls[0]?.[0])).toContain('account get-user USER_LOGIN_ID');
    write.mockRestore();
  });

  it('refuses a field without a value', async () => {
    await expect(main(['account', 'list-auths', 'auth_state'], {})).rejects.toThrow(/name=value/);
  });
});
