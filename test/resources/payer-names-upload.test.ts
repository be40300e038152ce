import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { http, passthrough } from 'msw';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  APIConnectionError,
  InternalServerError,
  PAYER_NAME_DOCUMENT_MAX_BYTES,
  type PayerNameDocumentInput,
  RequestValidationError,
} from '../../src/index.js';
import { createPayerNameWithDocuments } from '../../src/uploads/index.js';
import { payerName, rejection, valid } from '../helpers/payer-names.js';
import { BASE, fail, makeClient, ok, useServer } from '../helpers/server.js';

const server = useServer();
const MB10 = PAYER_NAME_DOCUMENT_MAX_BYTES;
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** Deterministic pseudo-random bytes (xorshift32), so a corrupted or shifted chunk changes the hash. */
function bytes(size: number, seed: number): Buffer<ArrayBuffer> {
  const words = new Uint32Array(Math.ceil(size / 4));
  let x = seed || 1;
  for (let i = 0; i < words.length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    words[i] = x >>> 0;
  }
  return Buffer.from(words.buffer, 0, size);
}

interface Received {
  headers: Headers;
  fields: Record<string, string>;
  descriptions: string[];
  files: { name: string; type: string; size: number; sha: string }[];
}

/** Parses the multipart body as a server would, keeping only hashes of the files. */
function receive(respond: () => Response = () => ok(payerName(), 201)) {
  const received: Received[] = [];
  server.use(
    http.post(`${BASE}/payer-names`, async ({ request }) => {
      const form = await request.formData();
      const entry: Received = { headers: request.headers, fields: {}, descriptions: [], files: [] };
      for (const [name, value] of form) {
        if (typeof value !== 'string') {
          const content = new Uint8Array(await value.arrayBuffer());
          entry.files.push({ name: value.name, type: value.type, size: value.size, sha: sha256(content) });
        } else if (name === 'documentDescriptions') entry.descriptions.push(value);
        else entry.fields[name] = value;
      }
      received.push(entry);
      return respond();
    }),
  );
  return received;
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'payer-names-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('createPayerNameWithDocuments (payments-service-sdk/uploads)', () => {
  it('streams five 10 MB documents (paths, Buffer, Blob, stream) that arrive intact, labels in place', async () => {
    const sources = [1, 2, 3, 4, 5].map((seed) => bytes(MB10, seed));
    const paths = [join(dir, 'licence.pdf'), join(dir, 'scan.JPG'), join(dir, 'stream.png')];
    await Promise.all([
      writeFile(paths[0]!, sources[0]!),
      writeFile(paths[1]!, sources[1]!),
      writeFile(paths[2]!, sources[4]!),
    ]);
    const documents: PayerNameDocumentInput[] = [
      { file: paths[0]!, description: 'Certificate of incorporation' },
      paths[1]!,
      { file: sources[2]!, fileName: 'register.docx', description: 'Register of directors' },
      { file: new Blob([sources[3]!], { type: 'application/msword' }), fileName: 'memo.doc' },
      { file: createReadStream(paths[2]!), fileName: 'utility.png', size: MB10, description: 'Utility bill' },
    ];
    const received = receive();
    const result = await createPayerNameWithDocuments(makeClient(), { ...valid, documents });

    expect(result.id).toBe(payerName().id);
    expect(received).toHaveLength(1);
    const [got] = received as [Received];
    expect(got.headers.get('content-type')).toMatch(/^multipart\/form-data; boundary=/);
    expect(Number(got.headers.get('content-length'))).toBeGreaterThan(5 * MB10);
    expect(got.fields).toEqual(valid);
    expect(got.descriptions).toEqual([
      'Certificate of incorporation',
      '',
      'Register of directors',
      '',
      'Utility bill',
    ]);
    expect(got.files).toEqual([
      { name: 'licence.pdf', type: 'application/pdf', size: MB10, sha: sha256(sources[0]!) },
      { name: 'scan.JPG', type: 'image/jpeg', size: MB10, sha: sha256(sources[1]!) },
      {
        name: 'register.docx',
        type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
        size: MB10,
        sha: sha256(sources[2]!),
      },
      { name: 'memo.doc', type: 'application/msword', size: MB10, sha: sha256(sources[3]!) },
      { name: 'utility.png', type: 'image/png', size: MB10, sha: sha256(sources[4]!) },
    ]);
    // 50 MB written, streamed, parsed and hashed: generous, for a loaded machine.
  }, 60_000);

  it('keeps Buffer views intact (a subarray of a larger buffer) and omits labels when none is given', async () => {
    const backing = bytes(300_000, 9);
    const view = backing.subarray(12_345, 12_345 + 200_000);
    const received = receive();
    await createPayerNameWithDocuments(makeClient(), {
      ...valid,
      documents: [{ file: view, contentType: 'application/pdf' }],
    });
    expect(received[0]!.files).toEqual([
      { name: 'document-1.pdf', type: 'application/pdf', size: 200_000, sha: sha256(view) },
    ]);
    expect(received[0]!.descriptions).toEqual([]);
  });

  it('takes the name and type of a File, and a label beside it', async () => {
    const received = receive();
    const file = new File([bytes(500, 8)], 'passport.jpeg');
    await createPayerNameWithDocuments(makeClient(), {
      ...valid,
      documents: [{ file, description: 'Passport' }],
    });
    expect(received[0]!.files).toEqual([
      { name: 'passport.jpeg', type: 'image/jpeg', size: 500, sha: sha256(bytes(500, 8)) },
    ]);
    expect(received[0]!.descriptions).toEqual(['Passport']);
  });

  it('is sent once: a 503 is not retried, since the body cannot be replayed', async () => {
    const received = receive(() => fail(503, 'Service Unavailable', {}, { 'retry-after': '0' }));
    const error = await rejection(
      createPayerNameWithDocuments(makeClient({ maxRetries: 3 }), {
        ...valid,
        documents: [{ file: bytes(1000, 3), fileName: 'a.pdf' }],
      }),
    );
    expect(error).toBeInstanceOf(InternalServerError);
    expect(received).toHaveLength(1);
  });

  it('sends a declared Content-Length over a real socket, and fails the upload when a stream falls short', async () => {
    // MSW turns a body error into a mocked 500; a loopback server shows what the network does.
    const lengths: number[] = [];
    const loopback = createServer((req, res) => {
      let n = 0;
      req.on('data', (chunk: Buffer) => {
        n += chunk.length;
      });
      req.on('end', () => {
        lengths.push(n, Number(req.headers['content-length']));
        res.writeHead(201, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            status: 201,
            message: 'Payer name submitted for review',
            success: true,
            data: payerName(),
          }),
        );
      });
      req.on('error', () => undefined);
    });
    await new Promise<void>((resolve) => loopback.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = loopback.address() as AddressInfo;
      server.use(http.all(`http://127.0.0.1:${port}/*`, () => passthrough()));
      const client = makeClient({ baseUrl: `http://127.0.0.1:${port}` });
      const stream = Readable.from([bytes(1000, 4), bytes(1000, 5)]);
      await createPayerNameWithDocuments(client, {
        ...valid,
        documents: [{ file: stream, fileName: 'a.pdf', size: 2000 }],
      });
      expect(lengths[0]).toBe(lengths[1]);
      const short = Readable.from([bytes(1000, 4)]);
      const error = await rejection(
        createPayerNameWithDocuments(client, {
          ...valid,
          documents: [{ file: short, fileName: 'a.pdf', size: 2000 }],
        }),
      );
      expect(error).toBeInstanceOf(APIConnectionError);
      expect((error as Error).message).toContain('1000 bytes, declared 2000');
    } finally {
      loopback.closeAllConnections();
      await new Promise((resolve) => loopback.close(resolve));
    }
  });

  it('payerNames.create refuses documents before sending, pointing at the uploads entry', async () => {
    // No handler: a request would fail the test. JSON cannot carry a file, and the core never loads the encoder.
    const error = await rejection(
      makeClient().payerNames.create({ ...valid, documents: [Buffer.from('%PDF')] } as never),
    );
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).issues).toEqual([
      {
        path: ['documents'],
        message: expect.stringContaining(
          "createPayerNameWithDocuments(client, body) from 'payments-service-sdk/uploads'",
        ),
      },
    ]);
  });

  it('payerNames.create and createPayerNameWithDocuments send an empty documents list as JSON', async () => {
    const types: (string | null)[] = [];
    server.use(
      http.post(`${BASE}/payer-names`, ({ request }) => {
        types.push(request.headers.get('content-type'));
        return ok(payerName(), 201);
      }),
    );
    await makeClient().payerNames.create({ ...valid, documents: [] } as never);
    await createPayerNameWithDocuments(makeClient(), { ...valid, documents: [] });
    expect(types).toEqual(['application/json', 'application/json']);
  });

  it('sends JSON when the documents list is empty', async () => {
    let type: string | null = null;
    server.use(
      http.post(`${BASE}/payer-names`, ({ request }) => {
        type = request.headers.get('content-type');
        return ok(payerName(), 201);
      }),
    );
    await createPayerNameWithDocuments(makeClient(), { ...valid, metadata: { a: 1 }, documents: [] });
    expect(type).toBe('application/json');
  });

  const pdf = () => bytes(100, 7);
  it.each<[string, string, string, PayerNameDocumentInput[]]>([
    [
      'a text file',
      'documents.1',
      'is not accepted',
      [
        { file: pdf(), fileName: 'a.pdf' },
        { file: pdf(), fileName: 'notes.txt' },
      ],
    ],
    [
      'a type overriding the name',
      'documents.0',
      'type text/plain',
      [{ file: pdf(), fileName: 'a.pdf', contentType: 'text/plain' }],
    ],
    [
      'a Blob of another type',
      'documents.0',
      'image/gif',
      [{ file: new Blob([pdf()], { type: 'image/gif' }), fileName: 'a.pdf' }],
    ],
    ['bytes with neither name nor type', 'documents.0', 'no name or type', [pdf()]],
    [
      'a file over 10 MB',
      'documents.1',
      'limit is 10485760',
      [
        { file: pdf(), fileName: 'a.pdf' },
        { file: Buffer.alloc(MB10 + 1), fileName: 'big.pdf' },
      ],
    ],
    [
      'a stream declared over 10 MB',
      'documents.0',
      'limit is',
      [{ file: Readable.from([]), fileName: 'a.png', size: MB10 + 1 }],
    ],
    [
      'a stream without size',
      'documents.0.size',
      'is required for a stream',
      [{ file: Readable.from([]), fileName: 'a.png' }],
    ],
    ['a missing path', 'documents.0', 'ENOENT', ['/nonexistent/dir/licence.pdf']],
    [
      'a wrong declared size',
      'documents.0.size',
      'has 100 bytes',
      [{ file: pdf(), fileName: 'a.pdf', size: 5 }],
    ],
    [
      'a non-string label',
      'documents.0.description',
      'must be a string',
      [{ file: pdf(), fileName: 'a.pdf', description: 5 as never }],
    ],
    [
      'a number as file',
      'documents.0.file',
      'must be a file path',
      [{ file: 5 as never, fileName: 'a.pdf' }],
    ],
    ['not a list', 'documents', 'must be an array', 'a.pdf' as never],
  ])('refuses %s before sending, naming %s', async (_name, field, message, documents) => {
    const received = receive();
    const error = await rejection(createPayerNameWithDocuments(makeClient(), { ...valid, documents }));
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).field).toBe(field);
    expect((error as RequestValidationError).message).toContain(message);
    expect(received).toHaveLength(0);
  });

  it('refuses metadata with documents, pointing at payerNames.update', async () => {
    const received = receive();
    const error = await rejection(
      createPayerNameWithDocuments(makeClient(), {
        ...valid,
        metadata: { crm: 'c-1' },
        documents: [{ file: bytes(10, 1), fileName: 'a.pdf' }],
      }),
    );
    expect((error as RequestValidationError).field).toBe('metadata');
    expect((error as RequestValidationError).message).toContain('payerNames.update');
    expect(received).toHaveLength(0);
  });
});
