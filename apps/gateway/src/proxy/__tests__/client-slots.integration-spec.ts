import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { waitFor } from '@mate/server-kit/testing';
import { ClientSlots, untilExchangeEnds } from '../client-slots';

/**
 * untilExchangeEnds on a real server: the answer is given at once, before the body, and kept
 * alive (no Connection: close), as the edge must never do, to see when the slot comes back.
 */
describe('untilExchangeEnds', () => {
  let server: http.Server;
  let port: number;
  const slots = new ClientSlots(4);
  const ADDRESS = 'client';

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      const release = slots.take(ADDRESS);
      if (release) untilExchangeEnds(req, res, release);
      res.end('early');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  /** A request declaring 100 bytes and sending 10; resolves with the socket once its answer arrived. */
  const answeredEarly = () =>
    new Promise<net.Socket>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => socket.write(`POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n${'a'.repeat(10)}`));
      socket.once('data', () => resolve(socket));
    });

  it('keeps the slot of a request answered before its body came until the body ends', async () => {
    const socket = await answeredEarly();
    expect(slots.held(ADDRESS)).toBe(1);
    socket.write('b'.repeat(90));
    await waitFor(async () => slots.held(ADDRESS) === 0, { what: 'the slot back once the body ended' });
    socket.destroy();
  });

  it('or until its connection closes', async () => {
    const socket = await answeredEarly();
    expect(slots.held(ADDRESS)).toBe(1);
    socket.destroy();
    await waitFor(async () => slots.held(ADDRESS) === 0, { what: 'the slot back once the connection closed' });
  });

  it('gives the slot back with the answer when the request was complete', async () => {
    const res = await fetch(`http://127.0.0.1:${port}/`, { method: 'POST', body: 'whole' });
    expect(await res.text()).toBe('early');
    await waitFor(async () => slots.held(ADDRESS) === 0, { what: 'the slot back with the answer' });
  });
});
