#!/usr/bin/env node
// The baseline of `npm run bench:chat`: a bare socket.io relay in its own process. A socket names
// its member in the handshake (`auth.userId`, no token, no session) and joins that member's room;
// on `send_message` the relay numbers the message per pair in memory, emits `new_message` to the
// recipient's room and `message_sent` to the sender's (as chat-service does) and acknowledges
// with the message. No database, no Redis, no gateway hop: what delivery costs at the least.
const http = require('node:http');
const { randomUUID } = require('node:crypto');
const { Server } = require('socket.io');

const server = http.createServer((req, res) => {
  res.writeHead(req.url && req.url.startsWith('/health') ? 200 : 404, { 'content-type': 'text/plain' });
  res.end('ok');
});
const io = new Server(server, { serveClient: false, maxHttpBufferSize: 100_000 });
const seqs = new Map();

io.use((socket, next) => {
  const userId = socket.handshake.auth && socket.handshake.auth.userId;
  if (typeof userId !== 'string' || !userId) return next(new Error('userId required'));
  socket.data.userId = userId;
  socket.join(`user:${userId}`);
  next();
});

io.on('connection', (socket) => {
  const senderId = socket.data.userId;
  socket.emit('connected', { userId: senderId });
  socket.on('send_message', (payload, ack) => {
    const reply = typeof ack === 'function' ? ack : () => undefined;
    if (!payload || typeof payload.recipientId !== 'string' || typeof payload.content !== 'string') {
      return reply({ error: 'recipientId and content are required' });
    }
    const pair =
      senderId < payload.recipientId
        ? `${senderId}|${payload.recipientId}`
        : `${payload.recipientId}|${senderId}`;
    const seq = (seqs.get(pair) || 0) + 1;
    seqs.set(pair, seq);
    const message = {
      id: randomUUID(),
      seq,
      senderId,
      recipientId: payload.recipientId,
      content: payload.content,
      createdAt: new Date().toISOString(),
      isRead: false,
      senderName: null,
      clientId: payload.clientId || null,
    };
    io.to(`user:${payload.recipientId}`).emit('new_message', message);
    io.to(`user:${senderId}`).emit('message_sent', message);
    reply(message);
  });
});

const stop = () => io.close(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
server.listen(Number(process.env.PORT || 0), process.env.HOST || '127.0.0.1');
