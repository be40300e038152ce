import { createReadStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  BadRequestError,
  ConflictError,
  NotFoundError,
  type PayerNameCreateParams,
  PermissionDeniedError,
  RequestValidationError,
} from '../../src/index.js';
import { createPayerNameWithDocuments } from '../../src/uploads/index.js';
import { clientFor, rejection, useMock } from '../helpers/mock.js';
import { createdPayerName } from '../helpers/payer-names.js';

const { mock, requests } = useMock();

const acme = {
  entity_type: 'business',
  display_name: 'Acme Payments',
  country: 'NG',
  address_line: '1 Marina Road',
  city: 'Lagos',
  state_province: 'Lagos',
  registration_number: 'RC123456',
} satisfies PayerNameCreateParams;

const stored = (id: string) => mock.account().payerNames.get(id)!;

describe('payerNames', () => {
  it('create goes to review; an approved name becomes the default; list, update, archive', async () => {
    const client = clientFor(mock);
    const created = await client.payerNames.create({ ...acme, metadata: { crmId: 'c-42', tier: 2 } });
    expect(created).toEqual(
      createdPayerName({ name: 'Acme Payments', metadata: { crmId: 'c-42', tier: 2 } }),
    );
    expect(stored(created.id).status).toBe('pending_review');

    // Not approved yet: it cannot be the default.
    const early = await rejection(client.payerNames.setDefault(created.id));
    expect(early).toBeInstanceOf(BadRequestError);
    expect((early as BadRequestError).message).toMatch(/only an approved payer name can be the default/i);
    expect(stored(created.id).isDefault).toBe(false);

    // The reviewer approves.
    expect(mock.payerNames.review(created.id, 'approve')).toMatchObject({ status: 'active' });

    const made = await client.payerNames.setDefault(created.id);
    expect(made).toMatchObject({ id: created.id, status: 'active', isDefault: true });
    expect(stored(created.id).isDefault).toBe(true);

    const pending = await client.payerNames.create({ ...acme, display_name: 'Acme Collections' });
    const approved = await client.payerNames.list({ status: 'approved' }).toArray();
    expect(approved.map((p) => p.id)).toEqual([created.id]);
    const inReview = await client.payerNames.list({ status: 'pending_review' }).toArray();
    expect(inReview.map((p) => p.id)).toEqual([pending.id]);
    expect(requests).toContain('GET /payer-names?status=approved');

    const updated = await client.payerNames.update(created.id, { metadata: { crmId: 'c-43', vip: true } });
    expect(updated).toMatchObject({
      id: created.id,
      name: 'Acme Payments',
      metadata: { crmId: 'c-43', vip: true },
    });
    expect(stored(created.id).metadata).toEqual({ crmId: 'c-43', vip: true });

    const archived = await client.payerNames.archive(created.id);
    expect(archived).toMatchObject({ id: created.id, status: 'archived', isDefault: false });
    expect(stored(created.id)).toMatchObject({ status: 'archived', isDefault: false });
    // Idempotent: archiving again is a 200 with the same record.
    const again = await client.payerNames.archive(created.id);
    expect(again).toEqual(archived);

    // Archived names leave the listing under archived: false and show under archived: true.
    expect((await client.payerNames.list({ archived: false }).toArray()).map((p) => p.id)).toEqual([
      pending.id,
    ]);
    expect((await client.payerNames.list({ archived: true }).toArray()).map((p) => p.id)).toEqual([
      created.id,
    ]);
    // The display name is free again.
    const reused = await client.payerNames.create(acme);
    expect(reused.name).toBe('Acme Payments');
  });

  it('setDefault moves the flag; false clears it', async () => {
    const client = clientFor(mock);
    const a = await client.payerNames.create({ ...acme, display_name: 'Name A' });
    const b = await client.payerNames.create({ ...acme, display_name: 'Name B' });
    mock.payerNames.review(a.id, 'approve');
    mock.payerNames.review(b.id, 'approve');
    // Cleared review but still registering: may already be the default.
    mock.payerNames.setStatus(b.id, 'processing');
    await client.payerNames.setDefault(a.id);
    const moved = await client.payerNames.setDefault(b.id);
    expect(moved).toMatchObject({ status: 'processing', isDefault: true });
    expect(stored(a.id).isDefault).toBe(false);
    const cleared = await client.payerNames.setDefault(b.id, false);
    expect(cleared.isDefault).toBe(false);
    expect([...mock.account().payerNames.values()].some((p) => p.isDefault)).toBe(false);
  });

  it('a duplicate display name (any case) is a ConflictError', async () => {
    const client = clientFor(mock);
    await client.payerNames.create(acme);
    const error = await rejection(client.payerNames.create({ ...acme, display_name: 'ACME payments' }));
    expect(error).toBeInstanceOf(ConflictError);
    expect((error as ConflictError).status).toBe(409);
    expect(mock.account().payerNames.size).toBe(1);
  });

  it('review decisions show up through the SDK: changes requested, rejected', async () => {
    const client = clientFor(mock);
    const a = await client.payerNames.create({ ...acme, display_name: 'Needs Work' });
    const b = await client.payerNames.create({ ...acme, display_name: 'Refused' });
    mock.payerNames.review(a.id, 'request_changes', 'Upload a utility bill');
    mock.payerNames.review(b.id, 'reject', 'Name does not match registration');
    const changes = await client.payerNames.list({ status: 'changes_requested' }).toArray();
    expect(changes).toEqual([expect.objectContaining({ id: a.id, decisionNote: 'Upload a utility bill' })]);
    const rejected = await client.payerNames.list({ status: 'rejected' }).toArray();
    expect(rejected).toEqual([
      expect.objectContaining({ id: b.id, decisionNote: 'Name does not match registration' }),
    ]);
    // A rejected name does not block the display name.
    await expect(client.payerNames.create({ ...acme, display_name: 'Refused' })).resolves.toMatchObject({
      status: 'pending_review',
    });
  });

  it('sandbox: a new name is active at once', async () => {
    mock.settings.sandbox = true;
    const created = await clientFor(mock).payerNames.create({
      entity_type: 'individual',
      display_name: 'Ada Obi',
      first_name: 'Ada',
      last_name: 'Obi',
      country: 'Nigeria',
      address_line: '2 Allen Avenue',
      city: 'Ikeja',
      state_province: 'Lagos',
      postal_code: '100271',
    });
    expect(created).toMatchObject({
      status: 'active',
      type: 'individual',
      firstName: 'Ada',
      lastName: 'Obi',
      country: 'NG',
      address: { postalCode: '100271' },
    });
    expect(created).not.toHaveProperty('metadata');
    await expect(clientFor(mock).payerNames.setDefault(created.id)).resolves.toMatchObject({
      isDefault: true,
    });
  });

  it('create with documents (Buffer + Blob, labelled) is stored by the mock as sent', async () => {
    const pdf = Buffer.from('%PDF-1.4\n% incorporation certificate\n%%EOF\n');
    const png = new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3])], {
      type: 'image/png',
    });
    const created = await createPayerNameWithDocuments(clientFor(mock), {
      ...acme,
      documents: [
        { file: pdf, fileName: 'incorporation.pdf', description: 'Certificate of incorporation' },
        { file: png, fileName: 'director-id.png', description: 'Director ID' },
      ],
    });
    expect(created.status).toBe('pending_review');
    const expected = [
      {
        fileName: 'incorporation.pdf',
        description: 'Certificate of incorporation',
        fileType: 'application/pdf',
        fileSize: pdf.length,
      },
      { fileName: 'director-id.png', description: 'Director ID', fileType: 'image/png', fileSize: 11 },
    ];
    expect(stored(created.id).documents).toEqual(
      expected.map((d) => ({ ...d, id: expect.any(String), createdAt: expect.any(String) })),
    );
    expect(created.documents).toEqual(
      expected.map((d) => ({
        ...d,
        id: expect.any(String),
        createdAt: expect.any(String),
        downloadUrl: expect.stringMatching(/^https:\/\/.+expires=\d+&signature=/),
      })),
    );
    // Only the text fields and files went over the wire: metadata is set afterwards.
    const withMeta = await clientFor(mock).payerNames.update(created.id, { metadata: { source: 'upload' } });
    expect(withMeta.metadata).toEqual({ source: 'upload' });
    expect(withMeta.documents).toHaveLength(2);
  });

  it('documents from a file path, a stream with its size, and an unnamed Blob', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'payer-name-docs-'));
    try {
      writeFileSync(join(dir, 'utility-bill.jpg'), Buffer.alloc(1_234, 1));
      writeFileSync(join(dir, 'id.png'), Buffer.alloc(4_321, 2));
      const created = await createPayerNameWithDocuments(clientFor(mock), {
        ...acme,
        documents: [
          join(dir, 'utility-bill.jpg'),
          { file: createReadStream(join(dir, 'id.png')), fileName: 'id.png', size: 4_321, description: 'ID' },
          new Blob([new Uint8Array(5)], { type: 'application/pdf' }),
        ],
      });
      expect(
        stored(created.id).documents.map((d) => [d.fileName, d.description, d.fileType, d.fileSize]),
      ).toEqual([
        ['utility-bill.jpg', null, 'image/jpeg', 1_234],
        ['id.png', 'ID', 'image/png', 4_321],
        ['document-3.pdf', null, 'application/pdf', 5],
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('an unlabelled file after a labelled one gets a null description', async () => {
    const created = await createPayerNameWithDocuments(clientFor(mock), {
      ...acme,
      documents: [
        { file: Buffer.from('%PDF-1.4 a'), fileName: 'a.pdf', description: 'First' },
        { file: Buffer.from('%PDF-1.4 bb'), fileName: 'b.pdf' },
      ],
    });
    expect(created.documents.map((d) => [d.fileName, d.description])).toEqual([
      ['a.pdf', 'First'],
      ['b.pdf', null],
    ]);
  });

  it('metadata with documents and unsupported file types are refused before sending', async () => {
    const client = clientFor(mock);
    const withMeta = await rejection(
      createPayerNameWithDocuments(client, {
        ...acme,
        metadata: { a: 1 },
        documents: [{ file: Buffer.from('x'), fileName: 'a.pdf' }],
      }),
    );
    expect(withMeta).toBeInstanceOf(RequestValidationError);
    expect((withMeta as RequestValidationError).field).toBe('metadata');
    const badType = await rejection(
      createPayerNameWithDocuments(client, {
        ...acme,
        documents: [{ file: Buffer.from('x'), fileName: 'notes.txt' }],
      }),
    );
    expect(badType).toBeInstanceOf(RequestValidationError);
    expect((badType as RequestValidationError).field).toBe('documents.0');
    expect(requests).toEqual([]);
  });

  it('an account that requires documents answers 400 naming documents; with a document the name is created', async () => {
    mock.settings.documentsRequired = true;
    const client = clientFor(mock);
    const bare = await rejection(client.payerNames.create(acme));
    expect(bare).toBeInstanceOf(BadRequestError);
    expect((bare as BadRequestError).errors).toEqual([
      { path: ['documents'], message: 'at least one document is required for this account' },
    ]);
    expect(mock.account().payerNames.size).toBe(0);
    const created = await createPayerNameWithDocuments(client, {
      ...acme,
      documents: [{ file: Buffer.from('%PDF-1.4 cac'), fileName: 'cac.pdf', description: 'CAC certificate' }],
    });
    expect(created.status).toBe('pending_review');
    expect(created.documents.map((d) => d.fileName)).toEqual(['cac.pdf']);
  });

  it('an unknown id is a NotFoundError; the feature switched off is PAYER_NAMES_DISABLED', async () => {
    const client = clientFor(mock);
    const missing = await rejection(client.payerNames.archive('00000000-0000-4000-8000-000000000000'));
    expect(missing).toBeInstanceOf(NotFoundError);
    expect((missing as NotFoundError).message).toMatch(/Payer name not found/);

    mock.account().payerNamesEnabled = false;
    const disabled = await rejection(client.payerNames.list());
    expect(disabled).toBeInstanceOf(PermissionDeniedError);
    expect((disabled as PermissionDeniedError).code).toBe('PAYER_NAMES_DISABLED');
  });
});
