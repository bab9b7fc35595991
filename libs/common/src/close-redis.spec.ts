import { closeRedis } from './redis';

/** closeRedis: QUIT when it is answered, otherwise the connection is dropped, never a shutdown that waits forever. */
describe('closeRedis', () => {
  const client = (quit: () => Promise<'OK'>) => ({ quit: jest.fn(quit), disconnect: jest.fn() });

  it('quits, and drops nothing, when QUIT is answered', async () => {
    const c = client(() => Promise.resolve('OK'));
    await closeRedis(c);
    expect(c.quit).toHaveBeenCalledTimes(1);
    expect(c.disconnect).not.toHaveBeenCalled();
  });

  it('drops the connection when QUIT fails', async () => {
    const c = client(() => Promise.reject(new Error('Connection is closed.')));
    await closeRedis(c);
    expect(c.disconnect).toHaveBeenCalledTimes(1);
  });

  it('drops the connection when QUIT is never answered (a cluster node that died)', async () => {
    const c = client(() => new Promise<'OK'>(() => undefined));
    await closeRedis(c, 50);
    expect(c.disconnect).toHaveBeenCalledTimes(1);
  });
});
