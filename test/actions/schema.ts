import { toJson } from '../../src/json/json.ts';
import type { AccountEventJson } from '../../src/actions/account-event.ts';
import type { ActionJson } from '../../src/actions/present/action-json.ts';
import { assertSchemaMatches } from '../helpers/openapi-assert.ts';

/** Validates as the API would send it: serialized with exact integers, then parsed. */
export function assertValidAction(action: ActionJson): void {
    assertSchemaMatches('Action', JSON.parse(toJson(action)));
}

export function assertValidEvent(event: AccountEventJson): void {
    assertSchemaMatches('AccountEvent', JSON.parse(toJson(event)));
    for (const action of event.actions) assertValidAction(action);
}
