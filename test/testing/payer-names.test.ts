import { describe, expect, it } from 'vitest';
import { call, useMocks } from '../helpers/mocks.js';
import { createdPayerName } from '../helpers/payer-names.js';

const { main, sandbox, strict } = useMocks({
  main: {},
  sandbox: { sandbox: true },
  strict: { documentsRequired: true },
});

const body = (extra: Record<string, unknown> = {}) => ({
  entity_type: 'business',
  display_name: 'Acme Payouts',
  registration_number: 'RC123456',
  country: 'Nigeria',
  address_line: '1 Marina Road',
  city: 'Lagos',
  state_province: 'Lagos',
  ...extra,
});

async function create(extra: Record<string, unknown> = {}, mock = main) {
  const res = await call(mock, 'POST', '/payer-names', { body: body(extra) });
  return res;
}

describe('payer names', () => {
  it('creates pending_review names in camelCase; sandbox creates active ones', async () => {
    const res = await create({ metadata: { crm: 'c-1', tier: 2, vip: true } });
    expect(res).toMatchObject({ status: 201, body: { message: 'Payer name submitted for review' } });
    expect(res.body.data).toEqual(
      createdPayerName({ name: 'Acme Payouts', metadata: { crm: 'c-1', tier: 2, vip: true } }),
    );
    // The answer's JSON keeps one order across releases (a merchant may compare the text): metadata comes last.
    expect(Object.keys(res.body.data).at(-1)).toBe('metadata');
    expect((await create({ display_name: 'Other' }, main)).body.data).not.toHaveProperty('metadata');
    const sb = await create({}, sandbox);
    expect(sb.body).toMatchObject({ message: 'Payer name created', data: { status: 'active' } });
  });

  it('review transitions and update', async () => {
    const id = (await create()).body.data.id;
    const changes = main.payerNames.review(id, 'request_changes', 'Upload the CAC certificate');
    expect(changes).toMatchObject({
      status: 'changes_requested',
      decisionNote: 'Upload the CAC certificate',
    });
    const updated = await call(main, 'PATCH', `/payer-names/${id}`, {
      body: { city: 'Ikeja', metadata: { k: 'v' } },
    });
    expect(updated.body.data).toMatchObject({
      status: 'pending_review',
      decisionNote: null,
      address: { city: 'Ikeja' },
      metadata: { k: 'v' },
    });
    expect(main.payerNames.review(id, 'approve').status).toBe('active');
    const other = (await create({ display_name: 'Rejected Co' })).body.data.id;
    expect(main.payerNames.review(other, 'reject', 'Not your company')).toMatchObject({
      status: 'rejected',
      decisionNote: 'Not your company',
    });
    expect(() => main.payerNames.review(other, 'approve')).toThrow(/pending_review/);
  });

  it('default rules: approved only, one per account, 404 for unknown', async () => {
    const a = (await create()).body.data.id;
    const b = (await create({ display_name: 'Second' })).body.data.id;
    const refused = await call(main, 'PATCH', `/payer-names/${a}/default`, { body: {} });
    expect(refused.body).toEqual({ status: 400, message: 'Only an approved payer name can be the default' });
    main.payerNames.review(a, 'approve');
    main.payerNames.review(b, 'approve');
    main.payerNames.setStatus(b, 'processing');
    expect((await call(main, 'PATCH', `/payer-names/${a}/default`)).body).toMatchObject({
      message: 'Default payer name updated',
      data: { isDefault: true },
    });
    await call(main, 'PATCH', `/payer-names/${b}/default`, { body: { isDefault: true } });
    const names = (await call(main, 'GET', '/payer-names')).body.data.payerNames;
    expect(names.filter((n: { isDefault: boolean }) => n.isDefault).map((n: { id: string }) => n.id)).toEqual(
      [b],
    );
    const cleared = await call(main, 'PATCH', `/payer-names/${b}/default`, { body: { isDefault: false } });
    expect(cleared.body.data.isDefault).toBe(false);
    const missing = await call(main, 'PATCH', '/payer-names/00000000-0000-4000-8000-000000000009/default');
    expect(missing.body).toEqual({ status: 404, message: 'Payer name not found' });
  });

  it('archive: clears default, idempotent, hidden under archived=false', async () => {
    const id = (await create()).body.data.id;
    main.payerNames.review(id, 'approve');
    await call(main, 'PATCH', `/payer-names/${id}/default`);
    const archived = await call(main, 'DELETE', `/payer-names/${id}`);
    expect(archived.body).toMatchObject({
      message: 'Payer name archived',
      data: { status: 'archived', isDefault: false },
    });
    expect((await call(main, 'DELETE', `/payer-names/${id}`)).status).toBe(200);
    expect((await call(main, 'PATCH', `/payer-names/${id}/default`)).status).toBe(400);
    const active = await call(main, 'GET', '/payer-names', { query: { archived: false } });
    expect(active.body.data.pagination.total).toBe(0);
    const onlyArchived = await call(main, 'GET', '/payer-names', { query: { archived: true } });
    expect(onlyArchived.body.data.payerNames.map((n: { id: string }) => n.id)).toEqual([id]);
  });

  it('409 for a case-insensitive duplicate in review or approved; reusable after reject or archive', async () => {
    const first = (await create()).body.data.id;
    expect((await create({ display_name: 'ACME payouts' })).status).toBe(409);
    main.payerNames.review(first, 'reject');
    const second = await create({ display_name: 'acme PAYOUTS' });
    expect(second.status).toBe(201);
    await call(main, 'DELETE', `/payer-names/${second.body.data.id}`);
    expect((await create()).status).toBe(201);
  });

  it('lists with nested pagination and review-status filters', async () => {
    const ids: string[] = [];
    for (const name of ['One', 'Two', 'Three']) ids.push((await create({ display_name: name })).body.data.id);
    main.payerNames.review(ids[0]!, 'approve');
    main.payerNames.setStatus(ids[1]!, 'action_required');
    const approved = await call(main, 'GET', '/payer-names', { query: { status: 'approved' } });
    expect(approved.body.data.payerNames.map((n: { id: string }) => n.id).sort()).toEqual(
      [ids[0], ids[1]].sort(),
    );
    const page = await call(main, 'GET', '/payer-names', { query: { pageSize: 2, page: 2 } });
    expect(page.body.data.pagination).toEqual({ page: 2, pageSize: 2, total: 3, totalPages: 2 });
    expect((await call(main, 'GET', '/payer-names', { query: { status: 'active' } })).status).toBe(400);
  });

  it('403 PAYER_NAMES_DISABLED when the feature is off for the account', async () => {
    main.account().payerNamesEnabled = false;
    for (const [method, path] of [
      ['POST', '/payer-names'],
      ['GET', '/payer-names'],
      ['DELETE', '/payer-names/x'],
    ]) {
      const res = await call(main, method!, path!, method === 'POST' ? { body: body() } : {});
      expect(res.body).toMatchObject({ status: 403, code: 'PAYER_NAMES_DISABLED' });
    }
    // The tenant's sub-accounts keep their own switch.
    expect(
      (await call(main, 'GET', '/payer-names', { accountId: main.state.individualAccountId })).status,
    ).toBe(200);
  });

  it('multipart: documents with positional descriptions; metadata refused', async () => {
    const form = new FormData();
    for (const [k, v] of Object.entries(body())) form.append(k, String(v));
    form.append('documents', new File([new Uint8Array(1234)], 'cac.pdf', { type: 'application/pdf' }));
    form.append('documents', new File([new Uint8Array(10)], 'id.png', { type: 'image/png' }));
    form.append('documentDescriptions', 'CAC certificate');
    const res = await call(main, 'POST', '/payer-names', { body: form });
    expect(res.status).toBe(201);
    const [cac, id] = res.body.data.documents;
    expect(cac).toMatchObject({
      fileName: 'cac.pdf',
      description: 'CAC certificate',
      fileType: 'application/pdf',
      fileSize: 1234,
    });
    expect(id).toMatchObject({ fileName: 'id.png', description: null, fileType: 'image/png', fileSize: 10 });
    expect(cac.downloadUrl).toMatch(/^https:\/\/.+signature=/);
    form.set('display_name', 'Another');
    form.append('metadata', '{"a":1}');
    const refused = await call(main, 'POST', '/payer-names', { body: form });
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0].path).toEqual(['metadata']);
    const badFile = new FormData();
    for (const [k, v] of Object.entries(body({ display_name: 'Third' }))) badFile.append(k, String(v));
    badFile.append('documents', new File(['x'], 'run.exe', { type: 'application/x-msdownload' }));
    expect((await call(main, 'POST', '/payer-names', { body: badFile })).body.errors[0].path).toEqual([
      'documents',
      '0',
    ]);
  });

  it('documentsRequired: a create without a document is 400 naming documents, JSON or multipart', async () => {
    const json = await create({}, strict);
    expect(json.status).toBe(400);
    expect(json.body.errors).toEqual([
      { path: ['documents'], message: 'at least one document is required for this account' },
    ]);
    const empty = new FormData();
    for (const [k, v] of Object.entries(body())) empty.append(k, String(v));
    expect((await call(strict, 'POST', '/payer-names', { body: empty })).status).toBe(400);
    empty.append('documents', new File([new Uint8Array(8)], 'cac.pdf', { type: 'application/pdf' }));
    expect((await call(strict, 'POST', '/payer-names', { body: empty })).status).toBe(201);
    expect((await create({ display_name: 'Elsewhere' })).status).toBe(201);
  });

  it('validates the JSON body', async () => {
    const res = await call(main, 'POST', '/payer-names', {
      body: { entity_type: 'robot', country: 'Atlantis' },
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Validation failed');
    const unresolvable = await create({ country: 'Atlantis' });
    expect(unresolvable.body.errors).toEqual([{ path: ['country'], message: expect.any(String) }]);
  });
});
