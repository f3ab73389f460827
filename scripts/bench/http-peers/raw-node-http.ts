/**
 * The scan route's baseline in `npm run bench:http`: Node's own HTTP server, nothing else, answering
 * every request 202 with a body the size of a scan's answer. No server in Node answers faster, so
 * the scan route's ratio to it says what everything the route does costs. Started by http.ts in
 * its own process on PORT, so it shares no event loop with the load generator.
 */
import http from 'node:http';

const answer = JSON.stringify({ scanId: '0193b0e4-6d7f-7c3a-9f3e-2a1b4c5d6e7f' });
const headers = { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(answer) };

http
  .createServer((_req, res) => {
    res.writeHead(202, headers).end(answer);
  })
  .listen(Number(process.env.PORT), '127.0.0.1', () => console.log('listening'));
