import { describe, expect, it } from 'vitest';
import {
  BadRequestError,
  type Beneficiary,
  type BeneficiaryInput,
  isBeneficiaryNotFound,
  RequestValidationError,
} from '../../src/index.js';
import { clientFor, rejection, useMock } from '../helpers/mock.js';

const { mock, requests } = useMock();

const ngnTransfer = {
  currency: 'NGN',
  account_name: 'ADAEZE KEMI OKAFOR',
  account_number: '0123456788',
  bank_name: 'Guaranty Trust Bank',
  bank_code: '000013',
  email: 'ada@example.com',
} satisfies BeneficiaryInput;

const ach = {
  withdrawal_method: 'ach',
  currency: 'USD',
  account_name: 'Acme Inc',
  account_number: '123456789012',
  bank_name: 'Chase',
  bank_address: { city: 'New York', country: 'US' },
  routing_number: '021000021',
  account_owner_type: 'business',
  account_category: 'checking',
} satisfies BeneficiaryInput;

const stored = (id: string) => mock.account().beneficiaries.get(id);

describe('beneficiaries', () => {
  it('NGN bank transfer: create, retrieve, list, update (whole body), delete', async () => {
    const client = clientFor(mock);
    const created = await client.beneficiaries.create(ngnTransfer);
    expect(created).toEqual({ id: expect.any(String), ...ngnTransfer, withdrawal_method: null });
    expect(created).not.toHaveProperty('deprecation_warning');
    expect(stored(created.id)).toMatchObject({ ...ngnTransfer, withdrawal_method: null });

    expect(await client.beneficiaries.retrieve(created.id)).toEqual(created);

    const listed = await client.beneficiaries.list().toArray();
    expect(listed).toEqual([created]);

    const updated = await client.beneficiaries.update(created.id, { ...ngnTransfer, label: 'Supplier' });
    expect(updated).toEqual({ ...created, label: 'Supplier' });
    expect(stored(created.id)).toMatchObject({ label: 'Supplier' });
    expect(requests).toContain(`PATCH /beneficiaries/${created.id}`);

    // The body replaces the record: leaving the label out removes it.
    const replaced = await client.beneficiaries.update(created.id, {
      ...ngnTransfer,
      account_name: 'A. K. OKAFOR',
    });
    expect(replaced).toEqual({ ...created, account_name: 'A. K. OKAFOR' });
    expect(replaced).not.toHaveProperty('label');

    await expect(client.beneficiaries.delete(created.id)).resolves.toBeUndefined();
    expect(stored(created.id)).toBeUndefined();
    expect(mock.account().beneficiaries.size).toBe(0);
    const gone = await rejection(client.beneficiaries.retrieve(created.id));
    expect(isBeneficiaryNotFound(gone)).toBe(true);
  });

  it('ach: create, retrieve, list, update, delete', async () => {
    const client = clientFor(mock);
    const created = await client.beneficiaries.create(ach);
    expect(created).toEqual({ id: expect.any(String), ...ach });
    expect(await client.beneficiaries.retrieve(created.id)).toEqual(created);

    const updated = await client.beneficiaries.update(created.id, {
      ...ach,
      account_category: 'savings',
      label: 'Payroll',
    });
    expect(updated).toMatchObject({
      id: created.id,
      withdrawal_method: 'ach',
      account_category: 'savings',
      label: 'Payroll',
    });
    expect(stored(created.id)).toMatchObject({ account_category: 'savings', label: 'Payroll' });

    await client.beneficiaries.delete(created.id);
    expect(isBeneficiaryNotFound(await rejection(client.beneficiaries.delete(created.id)))).toBe(true);
  });

  it('update without withdrawal_method keeps the stored rail', async () => {
    const client = clientFor(mock);
    const created = await client.beneficiaries.create(ach);
    const { withdrawal_method: _rail, ...rest } = ach;
    // The SDK checks a rail-less body as an NGN-style one; the service merges the stored rail back in.
    const updated = await client.beneficiaries.update(created.id, rest as BeneficiaryInput);
    expect(updated.withdrawal_method).toBe('ach');
  });

  it('lists both kinds page by page, newest first', async () => {
    const client = clientFor(mock);
    const made: Beneficiary[] = [];
    for (let i = 0; i < 3; i++) {
      made.push(await client.beneficiaries.create({ ...ngnTransfer, label: `ngn ${i}` }));
      made.push(await client.beneficiaries.create({ ...ach, label: `ach ${i}` }));
    }
    const first = await client.beneficiaries.list({ pageSize: 4 });
    expect(first).toMatchObject({ page: 1, pageSize: 4, totalCount: 6, totalPages: 2 });
    const all: Beneficiary[] = [];
    for await (const b of client.beneficiaries.list({ pageSize: 4 })) all.push(b);
    expect(all.map((b) => b.id)).toEqual(made.map((b) => b.id).reverse());
    expect(all.filter((b) => b.withdrawal_method === 'ach')).toHaveLength(3);
    expect(all.filter((b) => b.withdrawal_method === null)).toHaveLength(3);
  });

  it('an unknown id is a 400 Beneficiary not found, recognised by isBeneficiaryNotFound', async () => {
    const client = clientFor(mock);
    const id = '00000000-0000-4000-8000-000000000000';
    for (const call of [
      client.beneficiaries.retrieve(id),
      client.beneficiaries.update(id, ngnTransfer),
      client.beneficiaries.delete(id),
    ]) {
      const error = await rejection(call);
      expect(error).toBeInstanceOf(BadRequestError);
      expect(isBeneficiaryNotFound(error)).toBe(true);
      expect((error as BadRequestError).message).toContain(id);
    }
    // Another business's beneficiary is just as unknown.
    const other = await clientFor(mock)
      .forAccount(mock.state.businessAccountId)
      .beneficiaries.create(ngnTransfer);
    expect(isBeneficiaryNotFound(await rejection(client.beneficiaries.retrieve(other.id)))).toBe(true);
  });

  it('an incomplete ach body is refused before sending, naming the field', async () => {
    const { routing_number: _r, ...noRouting } = ach;
    const error = await rejection(clientFor(mock).beneficiaries.create(noRouting as BeneficiaryInput));
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).field).toBe('routing_number');
    expect(requests).toEqual([]);
  });

  it('grace period: an unclassified ach record is accepted with deprecation_warning', async () => {
    const { account_owner_type: _o, account_category: _c, ...unclassified } = ach;
    // The spec shows no field of the warning: this test invents one to see it carried through.
    mock.settings.invented.deprecationWarning = (fields) => ({ fields });
    const created = await clientFor(mock).beneficiaries.create(unclassified as BeneficiaryInput, {
      allowUnclassified: true,
    });
    expect(created.deprecation_warning).toMatchObject({ fields: ['account_owner_type', 'account_category'] });
    // Backfilled through update: the warning goes away.
    const fixed = await clientFor(mock).beneficiaries.update(created.id, ach);
    expect(fixed).not.toHaveProperty('deprecation_warning');

    mock.settings.beneficiaryGracePeriod = false;
    const refused = await rejection(
      clientFor(mock).beneficiaries.create(unclassified as BeneficiaryInput, { allowUnclassified: true }),
    );
    expect(refused).toBeInstanceOf(BadRequestError);
    expect((refused as BadRequestError).errors?.map((e) => e.path.join('.'))).toEqual([
      'account_owner_type',
      'account_category',
    ]);
  });
});
