/**
 * The scan route's yardstick in `npm run bench:http` (issue 33): the least a durable scan can do.
 * Node's own HTTP server, the visitor's hashes as the gateway makes them (one HMAC, one SHA-256),
 * one row per scan handed to a worker thread that group-commits them to SQLite (WAL,
 * `synchronous=FULL`), and 202 once its row is committed. No framework, no limits, no projections,
 * no log: the scan route's ratio to it says what the product's rules cost on top of storing a scan.
 * Started by http.ts in its own process on PORT, with its file at EVENTS_FILE.
 */
import { createHash, createHmac, randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/*
 * The worker is plain JavaScript evaluated from a string: tsx's loader does not reach a worker
 * thread on Node 20, and the floor should not pay for one anyway. It commits each batch it is sent
 * in one transaction and answers once the commit (an fsync) returns.
 */
const writer = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.betterSqlite3);
const db = new Database(workerData.file);
db.pragma('journal_mode = WAL');
db.pragma('synchronous = FULL');
db.exec('CREATE TABLE IF NOT EXISTS scans (position INTEGER PRIMARY KEY, scan_id TEXT NOT NULL, fundraiser_id TEXT NOT NULL, at TEXT NOT NULL, visitor_hash TEXT NOT NULL, address_hash TEXT NOT NULL)');
const insert = db.prepare('INSERT INTO scans (scan_id, fundraiser_id, at, visitor_hash, address_hash) VALUES (?, ?, ?, ?, ?)');
const commit = db.transaction((rows) => {
  for (let i = 0; i < rows.length; i += 5) insert.run(rows[i], rows[i + 1], rows[i + 2], rows[i + 3], rows[i + 4]);
});
parentPort.on('message', (rows) => {
  commit(rows);
  parentPort.postMessage(rows.length / 5);
});
`;

const thread = new Worker(writer, {
  eval: true,
  execArgv: [],
  workerData: {
    file: process.env.EVENTS_FILE,
    betterSqlite3: createRequire(import.meta.url).resolve('better-sqlite3'),
  },
});

/** Rows waiting for the next commit (five strings each) and the answers waiting on them. */
let rows: string[] = [];
let waiting: (() => void)[] = [];
/** The answers of the batch the thread is committing; one batch at a time. */
let committing: (() => void)[] | undefined;

function send(): void {
  committing = waiting;
  thread.postMessage(rows);
  rows = [];
  waiting = [];
}

thread.on('message', () => {
  const done = committing!;
  committing = undefined;
  if (waiting.length > 0) send();
  for (const answer of done) answer();
});
thread.on('error', (error) => {
  console.error(error);
  process.exit(1);
});

const salt = randomBytes(32);
const SCAN_URL = /^\/api\/fundraisers\/([^/?]+)\/scan/;
const JSON_TYPE = 'application/json; charset=utf-8';

http
  .createServer((req, res) => {
    const scan = req.method === 'POST' ? SCAN_URL.exec(req.url ?? '') : null;
    if (!scan) {
      res.writeHead(404, { 'content-type': JSON_TYPE }).end('{"error":"Not found"}');
      return;
    }
    const fundraiserId = scan[1]!;
    const forwarded = req.headers['x-forwarded-for'];
    const address = typeof forwarded === 'string' ? forwarded : (req.socket.remoteAddress ?? '');
    const keyed = createHmac('sha256', salt).update(`${fundraiserId}\0${address}`).digest();
    const visitor = createHash('sha256')
      .update(keyed)
      .update(req.headers['user-agent'] ?? '')
      .digest();
    const scanId = randomUUID();
    rows.push(
      scanId,
      fundraiserId,
      new Date().toISOString(),
      visitor.subarray(0, 16).toString('base64url'),
      keyed.subarray(0, 16).toString('base64url'),
    );
    const answer = JSON.stringify({ scanId });
    const headers = { 'content-type': JSON_TYPE, 'content-length': Buffer.byteLength(answer) };
    waiting.push(() => res.writeHead(202, headers).end(answer));
    if (!committing) send();
  })
  .listen(Number(process.env.PORT), '127.0.0.1', () => console.log('listening'));
