/**
 * The helpdesk's reads (endpoints 8, 10, 11) and cancellation reasons (endpoint 14), through both
 * adapters with plain fetch.
 */
import { beforeEach, describe, expect, test } from 'vitest';
import { createPlatform, type StateDocument } from '../../mock/index.js';
import * as e from '../../src/endpoints.js';
import { pathOf } from '../../src/endpoints.js';
import { CancellationReasonResponse, CancellationReasonsResponse } from '../../src/schemas/cancellation-reasons.js';
import {
  GetHelpdeskRecordResponse,
  GetPendingMessagesResponse,
  HelpdeskMessageState,
  HelpdeskMessageType,
} from '../../src/schemas/helpdesk.js';
import { ADAPTERS, absent, demoIds, expectError, expectOk, expectUnchanged, useAdapter } from './harness.js';

const { anna, bo, dora, ines } = demoIds.accounts;
const messages = demoIds.helpdeskMessages;
const templates = demoIds.helpdeskTemplates;
const reasons = demoIds.cancellationReasons;
const paths = {
  pending: pathOf(e.getPendingMessages, 'stage'),
  message: pathOf(e.getHelpdeskMessage, 'stage'),
  template: pathOf(e.getHelpdeskMessageTemplate, 'stage'),
  templateProduction: pathOf(e.getHelpdeskMessageTemplate, 'production'),
  reasons: pathOf(e.getCancellationReason, 'stage'),
};

describe.each(ADAPTERS)('helpdesk through %s', (kind) => {
  const h = useAdapter(kind);
  let token: string;
  beforeEach(() => {
    token = h.token(['/external/helpdesk/r', '/external/cancellation_reason/r']);
  });
  const get = (path: string, query: Record<string, string>) => h.call(path, { query, token });
  /** Changes the state through a restore of the platform's document. */
  const restoreWith = (change: (doc: StateDocument) => void) => {
    const doc = h.platform.snapshot();
    change(doc);
    h.platform.restore(doc);
  };

  describe('8. pending messages of an account', () => {
    test("only the account's pending messages, oldest first, each with its account and assignee", async () => {
      const { items } = expectOk(await get(paths.pending, { account_id: anna }), GetPendingMessagesResponse);
      expect(items.map((m) => m.id)).toEqual([messages.annaPendingUnassigned, messages.annaPendingAssigned]);
      const [unassigned, assigned] = items;
      expect(unassigned).toMatchObject({ assignee_id: '', assignee: null, state: 'pending', type: 'request' });
      expect(assigned).toMatchObject({
        account_id: anna,
        account: {
          id: anna,
          first_name: 'Anna',
          last_name: 'Andersson',
          contact_email: 'anna@example.com',
          mobile_number: '+46701234567',
          customer_number: 'C1001',
          status: 'active',
          verified: true,
          has_products: false,
        },
        assignee_id: ines,
        assignee: { id: ines, first_name: 'Ines', contact_email: 'ines@demo-media.example', verified: true },
      });
      // The comment's whole shape (docs/assumptions.md): its id, its author (an agent here), its text and time.
      expect(assigned?.comments).toEqual([
        {
          id: 'f20000000000000000000001',
          author_id: ines,
          message: 'We are looking into it.',
          created_at: '2024-03-01T10:00:00Z',
        },
      ]);
      // occurrences is on single reads only; an assignee has no has_products.
      expect(assigned).not.toHaveProperty('occurrences');
      expect(assigned?.assignee).not.toHaveProperty('has_products');
    });

    test('oldest first by created_at as an instant: a time with an offset sorts by when it was, not by its text', async () => {
      // 12:00+05:00 is 07:00Z, before 09:00Z, though its text sorts after.
      restoreWith((doc) => {
        doc.helpdesk_messages.find((m) => m.id === messages.annaPendingUnassigned)!.created_at = '2024-02-01T09:00:00Z';
        doc.helpdesk_messages.find((m) => m.id === messages.annaPendingAssigned)!.created_at =
          '2024-02-01T12:00:00+05:00';
      });
      const { items } = expectOk(await get(paths.pending, { account_id: anna }), GetPendingMessagesResponse);
      expect(items.map((m) => m.id)).toEqual([messages.annaPendingAssigned, messages.annaPendingUnassigned]);
    });

    test('has_products is true when the account holds an activated user-product; a name change shows at once', async () => {
      const doc = h.platform.snapshot();
      doc.accounts.find((a) => a.id === bo)!.first_name = 'Bosse';
      h.platform.restore(doc);
      token = h.token(['/external/helpdesk/r']);
      const { items } = expectOk(await get(paths.pending, { account_id: bo }), GetPendingMessagesResponse);
      expect(items[0]?.account).toMatchObject({ first_name: 'Bosse', has_products: true, mobile_number: '' });
    });

    test("the assignee is read from the accounts: renaming the agent's account shows in the next read", async () => {
      const before = expectOk(await get(paths.pending, { account_id: anna }), GetPendingMessagesResponse);
      expect(before.items[1]?.assignee).toMatchObject({ id: ines, first_name: 'Ines' });
      restoreWith((doc) => {
        doc.accounts.find((a) => a.id === ines)!.first_name = 'Inez';
      });
      const after = expectOk(await get(paths.pending, { account_id: anna }), GetPendingMessagesResponse);
      expect(after.items[1]?.assignee).toEqual({ ...before.items[1]?.assignee, first_name: 'Inez' });
      const single = expectOk(
        await get(paths.message, { id: messages.annaPendingAssigned }),
        GetHelpdeskRecordResponse,
      );
      expect(single.item.assignee?.first_name).toBe('Inez');
    });

    test('has_products follows the user-products: true while one gives access (activated, or cancelled in its term), false when none does', async () => {
      const boBasicEnd = '2040-01-01T00:00:00Z';
      const hasProducts = async (account: string) =>
        expectOk(await get(paths.pending, { account_id: account }), GetPendingMessagesResponse).items[0]?.account
          .has_products;
      // Anna holds only a deactivated user-product; Bo an activated one.
      expect(await hasProducts(anna)).toBe(false);
      expect(await hasProducts(bo)).toBe(true);
      restoreWith((doc) => {
        doc.user_products.find((u) => u.id === demoIds.userProducts.annaPremiumDeactivated)!.state = 'activated';
        const boBasic = doc.user_products.find((u) => u.id === demoIds.userProducts.boBasic)!;
        boBasic.state = 'cancelled';
        boBasic.cancelled_at = '2024-01-01T00:00:00Z';
        boBasic.valid_to = boBasicEnd;
      });
      expect(await hasProducts(anna)).toBe(true);
      // A cancelled user-product gives access to the end of its term, and no longer.
      expect(await hasProducts(bo)).toBe(true);
      h.platform.clock.set(boBasicEnd);
      token = h.token(['/external/helpdesk/r']); // a token of the new time
      expect(await hasProducts(bo)).toBe(false);
    });

    test.each([
      ['an absent account', { account_id: absent.account }, 404, 'not_found', 'account_id'],
      ["another organisation's account", { account_id: dora }, 404, 'not_found', 'account_id'],
      ['a malformed id', { account_id: 'anna' }, 400, 'invalid_parameter', 'account_id'],
      ['no account_id', {}, 400, 'invalid_parameter', 'account_id'],
      ['an unknown parameter', { account_id: anna, state: 'resolved' }, 400, 'unknown_parameter', 'state'],
    ])('refuses %s', async (_, query, status, code, field) => {
      expectError(await expectUnchanged(h.platform, () => get(paths.pending, query)), status, code, field);
    });
  });

  describe('11. one message, 10. one template', () => {
    test('a message by id, whatever its state, with occurrences', async () => {
      const { item } = expectOk(await get(paths.message, { id: messages.annaResolved }), GetHelpdeskRecordResponse);
      expect(item).toMatchObject({ id: messages.annaResolved, state: 'resolved', occurrences: 1, type: 'question' });
      expect(item.resolved_at).toBe('2023-12-02T09:00:00Z');
    });

    test('a template by id, in the same shape, with occurrences', async () => {
      const { item } = expectOk(await get(paths.template, { id: templates.invoice }), GetHelpdeskRecordResponse);
      expect(item).toMatchObject({
        id: templates.invoice,
        heading: 'Invoice question',
        occurrences: 12,
        assignee_id: ines,
      });
    });

    test.each([
      ['message', paths.message, { id: absent.helpdeskMessage }, 404, 'not_found', 'id'],
      ['message', paths.message, { id: messages.doraPending }, 404, 'not_found', 'id'],
      ['message', paths.message, { id: 'x' }, 400, 'invalid_parameter', 'id'],
      [
        'message',
        paths.message,
        { id: messages.annaResolved, account_id: anna },
        400,
        'unknown_parameter',
        'account_id',
      ],
      ['template', paths.template, { id: absent.helpdeskTemplate }, 404, 'not_found', 'id'],
      ['template', paths.template, { id: templates.complex }, 404, 'not_found', 'id'],
      ['template', paths.template, {}, 400, 'invalid_parameter', 'id'],
      ['template', paths.template, { id: templates.invoice, x: '1' }, 400, 'unknown_parameter', 'x'],
    ])('a %s: refuses %j', async (_, path, query, status, code, field) => {
      expectError(await expectUnchanged(h.platform, () => get(path, query)), status, code, field);
    });

    test('stage serves the template at helpdesk_message_templates, and 404s the production spelling', async () => {
      expect((await get(paths.template, { id: templates.invoice })).status).toBe(200);
      expectError(await get(paths.templateProduction, { id: templates.invoice }), 404, 'not_found');
    });
  });

  describe('14. cancellation reasons', () => {
    const ids = (items: { id: string }[]) => items.map((r) => r.id);
    const { tooExpensive, noTime, movedAbroad, paymentFailed, fraud, duplicate } = reasons;

    test.each<[string, Record<string, string>, string[]]>([
      ['no flags: every reason but the internal ones', {}, [tooExpensive, noTime, movedAbroad, duplicate]],
      [
        'include_internal=true: every reason',
        { include_internal: 'true' },
        [tooExpensive, noTime, movedAbroad, paymentFailed, fraud, duplicate],
      ],
      [
        'include_internal=false: as no flags',
        { include_internal: 'false' },
        [tooExpensive, noTime, movedAbroad, duplicate],
      ],
      [
        'visible_to_end_customer=true: only the visible ones',
        { visible_to_end_customer: 'true' },
        [tooExpensive, noTime, movedAbroad],
      ],
      ['visible_to_end_customer=false: only the others', { visible_to_end_customer: 'false' }, [duplicate]],
      [
        'both true',
        { include_internal: 'true', visible_to_end_customer: 'true' },
        [tooExpensive, noTime, movedAbroad, fraud],
      ],
      [
        'internal, not visible',
        { include_internal: 'true', visible_to_end_customer: 'false' },
        [paymentFailed, duplicate],
      ],
      [
        'include_internal=false, visible',
        { include_internal: 'false', visible_to_end_customer: 'true' },
        [tooExpensive, noTime, movedAbroad],
      ],
      [
        'include_internal=false, not visible',
        { include_internal: 'false', visible_to_end_customer: 'false' },
        [duplicate],
      ],
    ])('%s, ordered by index', async (_, query, expected) => {
      const { items } = expectOk(await get(paths.reasons, query), CancellationReasonsResponse);
      expect(ids(items)).toEqual(expected);
      expect(items.map((r) => r.index)).toEqual([...items.map((r) => r.index)].sort((a, b) => a - b));
    });

    test('with id: { item }, the reason as the spec reads it', async () => {
      const { item } = expectOk(await get(paths.reasons, { id: tooExpensive }), CancellationReasonResponse);
      expect(item).toEqual({
        index: 1,
        id: tooExpensive,
        name: 'Too expensive',
        code: 'too_expensive',
        integration_code: 'TOO_EXPENSIVE',
        visible_to_end_customer: true,
        internal: false,
      });
    });

    test('with id, the flags still apply: an internal reason only with include_internal=true', async () => {
      expectError(await get(paths.reasons, { id: paymentFailed }), 404, 'not_found', 'id');
      expectOk(await get(paths.reasons, { id: paymentFailed, include_internal: 'true' }), CancellationReasonResponse);
    });

    test.each([
      ['an absent id', { id: absent.cancellationReason }, 404, 'not_found', 'id'],
      ["another organisation's reason", { id: reasons.complexReason }, 404, 'not_found', 'id'],
      ['a flag that is not a boolean', { include_internal: 'yes' }, 400, 'invalid_parameter', 'include_internal'],
      ['an unknown parameter', { code: 'too_expensive' }, 400, 'unknown_parameter', 'code'],
    ])('refuses %s', async (_, query, status, code, field) => {
      expectError(await expectUnchanged(h.platform, () => get(paths.reasons, query)), status, code, field);
    });
  });
});

describe('the state document: helpdesk types and states outside the documented sets', () => {
  const platform = createPlatform({ seed: 'demo' });
  test.each<[string, (doc: StateDocument) => void, string]>([
    [
      "a message's type",
      (d) => Object.assign(d.helpdesk_messages[0]!, { type: 'praise' }),
      'helpdesk_messages[0].type',
    ],
    [
      "a message's state",
      (d) => Object.assign(d.helpdesk_messages[0]!, { state: 'closed' }),
      'helpdesk_messages[0].state',
    ],
    [
      "a template's type",
      (d) => Object.assign(d.helpdesk_message_templates[0]!, { type: 'praise' }),
      'helpdesk_message_templates[0].type',
    ],
    [
      "a template's state",
      (d) => Object.assign(d.helpdesk_message_templates[0]!, { state: 'closed' }),
      'helpdesk_message_templates[0].state',
    ],
  ])('restore refuses %s, naming the field, and changes nothing', (_, spoil, field) => {
    const before = platform.snapshot();
    const doc = platform.snapshot();
    spoil(doc);
    expect(() => platform.restore(doc)).toThrow(
      expect.objectContaining({ status: 400, code: 'invalid_parameter', field }),
    );
    expect(platform.snapshot()).toEqual(before);
  });

  test('every documented type and state is accepted', () => {
    const doc = platform.snapshot();
    for (const type of HelpdeskMessageType.options)
      for (const state of HelpdeskMessageState.options) {
        Object.assign(doc.helpdesk_messages[0]!, { type, state });
        expect(() => platform.restore(doc)).not.toThrow();
      }
    platform.reset();
  });
});

describe('helpdesk on production', () => {
  const h = useAdapter('msw', { environment: 'production' });

  test('production serves the template at helpdesk_messages_templates, and 404s the stage spelling', async () => {
    const token = h.token(['/external/helpdesk/r']);
    const answer = await h.call(paths.templateProduction, { query: { id: templates.invoice }, token });
    expect(expectOk(answer, GetHelpdeskRecordResponse).item.id).toBe(templates.invoice);
    expectError(await h.call(paths.template, { query: { id: templates.invoice }, token }), 404, 'not_found');
  });
});
