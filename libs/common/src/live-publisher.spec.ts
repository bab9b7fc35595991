import { Emitter } from '@socket.io/redis-emitter';
import { livePublisher } from './live-publisher';

describe('livePublisher', () => {
  it('hands the emitter a publish whose failure is reported instead of left unhandled', async () => {
    const unhandled = jest.fn();
    process.on('unhandledRejection', unhandled);
    try {
      const publish = jest.fn().mockRejectedValue(new Error('Connection is closed.'));
      const onError = jest.fn();
      new Emitter(livePublisher({ publish } as never, onError), { key: 'beacon-test:socket.io' }).to('public').emit('hello', 1);
      await new Promise((r) => setImmediate(r));
      expect(publish).toHaveBeenCalledWith(expect.stringContaining('beacon-test:socket.io'), expect.any(Buffer));
      expect(onError).toHaveBeenCalledWith(expect.objectContaining({ message: 'Connection is closed.' }));
      expect(unhandled).not.toHaveBeenCalled();
    } finally {
      process.off('unhandledRejection', unhandled);
    }
  });

  it('passes a successful publish through', async () => {
    const publish = jest.fn().mockResolvedValue(1);
    const onError = jest.fn();
    await expect(livePublisher({ publish } as never, onError).publish('c', 'm')).resolves.toBe(1);
    expect(onError).not.toHaveBeenCalled();
  });
});
