// Peak memory of a 5 x 10 MB payer-name upload against a tiny request, through the built SDK.
//   npm run build && node --expose-gc bench/upload.mjs
// The loopback server (127.0.0.1, port 0) runs in a child process, so its socket buffers are not counted
// against the client. Node frees the 64 KiB chunks read from disk only at the next GC, so even reading 50 MB
// and discarding it raises RSS; the control line measures exactly that, for comparison.
import { fork } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createPayerNameWithDocuments } from '../dist/uploads.js';

const FILES = 5;
const FILE_BYTES = 10 * 1024 * 1024;
const TARGET_MB = 32;
const MB = 1024 * 1024;

const payerName = {
  id: '7d0c3b9e-2f4a-4b8c-9d1e-0a1b2c3d4e5f',
  type: 'business',
  name: 'Bench Ltd',
  firstName: null,
  lastName: null,
  registrationNumber: null,
  registrationDate: null,
  country: 'NG',
  address: { line1: '1 Marina', city: 'Lagos', state: 'Lagos', postalCode: null },
  status: 'pending_review',
  isDefault: false,
  decisionNote: null,
  documents: [],
  createdAt: '2026-11-01T10:00:00.000Z',
  updatedAt: '2026-11-01T10:00:00.000Z',
};

/** Child process: consumes and discards every body, answers with a payer name (201) or a one-row list. */
function serve() {
  let received = 0;
  const server = createServer((req, res) => {
    req.on('data', (chunk) => {
      received += chunk.length;
    });
    req.on('end', () => {
      const created = req.method === 'POST';
      const list = {
        payerNames: [payerName],
        pagination: { page: 1, pageSize: 20, total: 1, totalPages: 1 },
      };
      const data = created ? payerName : list;
      res.writeHead(created ? 201 : 200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ status: created ? 201 : 200, message: 'OK', success: true, data }));
    });
  });
  process.on('message', () => process.send({ received }));
  server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
}

/** Deterministic, incompressible files, written 1 MB at a time so the bench never holds one whole. */
async function makeFiles(dir) {
  await mkdir(dir, { recursive: true });
  const paths = [];
  for (let i = 0; i < FILES; i++) {
    const path = join(dir, `document-${i + 1}.pdf`);
    const file = await open(path, 'w');
    for (let b = 0; b < FILE_BYTES / MB; b++) {
      await file.write(Buffer.alloc(MB, createHash('sha256').update(`${i}:${b}`).digest()));
    }
    await file.close();
    paths.push(path);
  }
  return paths;
}

/**
 * Runs `task` while sampling memory every 5 ms; returns the peak growth over the settled start, in MB: RSS,
 * and the JS heap and array buffers (the chunks in flight or awaiting GC) it is mostly made of.
 */
async function peakGrowth(task) {
  globalThis.gc?.();
  globalThis.gc?.();
  await new Promise((resolve) => setTimeout(resolve, 50));
  const start = process.memoryUsage();
  const peak = { ...start };
  const sample = () => {
    const now = process.memoryUsage();
    for (const key of Object.keys(peak)) peak[key] = Math.max(peak[key], now[key]);
  };
  const timer = setInterval(sample, 5);
  const began = performance.now();
  try {
    await task();
  } finally {
    clearInterval(timer);
  }
  sample();
  const grew = (key) => (peak[key] - start[key]) / MB;
  return {
    mb: grew('rss'),
    heap: grew('heapTotal'),
    buffers: grew('arrayBuffers'),
    s: (performance.now() - began) / 1000,
  };
}

async function main() {
  if (!globalThis.gc) console.warn('run with --expose-gc for steadier figures');
  const { PaymentsClient } = await import('../dist/index.js');
  const dir = fileURLToPath(new URL('../.bench-tmp/', import.meta.url));
  const paths = await makeFiles(dir);
  const child = fork(fileURLToPath(import.meta.url), ['--serve']);
  const ask = () => new Promise((resolve) => child.once('message', resolve));
  const { port } = await ask();
  const client = new PaymentsClient({
    apiKey: 'sk_bench',
    baseUrl: `http://127.0.0.1:${port}`,
    logLevel: 'off',
  });
  const fields = {
    entity_type: 'business',
    display_name: 'Bench Ltd',
    country: 'NG',
    address_line: '1 Marina',
    city: 'Lagos',
    state_province: 'Lagos',
  };
  const documents = paths.map((file, i) => ({ file, description: `document ${i + 1}` }));
  const upload = () => createPayerNameWithDocuments(client, { ...fields, documents });
  const mb = (n) => `${n >= 0 ? '+' : ''}${n.toFixed(1)} MB`;

  try {
    // Module loading and JIT of both paths are not upload memory.
    await client.payerNames.list();
    await createPayerNameWithDocuments(client, {
      ...fields,
      documents: [{ file: Buffer.alloc(1024), fileName: 'w.pdf' }],
    });

    const tiny = await peakGrowth(() => client.payerNames.list());
    const cold = await peakGrowth(upload);
    const warm = await peakGrowth(upload);
    const control = await peakGrowth(async () => {
      for (const path of paths) for await (const _ of createReadStream(path));
    });
    child.send('count');
    const { received } = await ask();
    const payload = (FILES * FILE_BYTES) / MB;
    console.log(`tiny request (payerNames.list): peak RSS ${mb(tiny.mb)}`);
    for (const [label, run] of [
      ['first', cold],
      ['repeat', warm],
    ]) {
      console.log(
        `upload of ${FILES} x ${FILE_BYTES / MB} MB (${label}): peak RSS ${mb(run.mb)} over a tiny request ` +
          `(${mb(tiny.mb)}); difference ${mb(run.mb - tiny.mb)}, ${((run.mb / payload) * 100).toFixed(0)} % ` +
          `of the ${payload} MB sent, in ${run.s.toFixed(2)} s (JS heap ${mb(run.heap)}, array buffers ${mb(run.buffers)})`,
      );
    }
    console.log(`control, reading the same files from disk and discarding them: peak RSS ${mb(control.mb)}`);
    console.log(`server received ${(received / MB).toFixed(1)} MB in all`);
    const worst = Math.max(cold.mb, warm.mb);
    console.log(worst < TARGET_MB ? `within the ${TARGET_MB} MB target` : `OVER the ${TARGET_MB} MB target`);
    process.exitCode = worst < TARGET_MB ? 0 : 1;
  } finally {
    child.kill();
    await rm(dir, { recursive: true, force: true });
  }
}

if (process.argv.includes('--serve')) serve();
else await main();
