import { Dictionary, type Cell, type DictionaryValue, type Slice } from '@ton/core';
import { formatRawAddress } from '../address.ts';
import { DictKeys } from '../cells/dict-keys.ts';

/** How a known multisig keeps its members in the data cell. */
export type MultisigLayout = 'v1' | 'v2';

/** Who takes part in a multisig: v2 names members by address, v1 by public key. */
export interface MultisigMembers {
    /** Signers and proposers, raw `wc:hex`, each once, in dictionary order (signers first). */
    addresses: string[];
    /** Owner keys, 64 lowercase hex characters, each once, in dictionary order. */
    publicKeys: string[];
}

const LAYOUT_BY_INTERFACE: ReadonlyMap<string, MultisigLayout> = new Map([
    ['multisig_v1', 'v1'],
    ['multisig_v2', 'v2'],
]);

/** The layout of a contract with these interfaces, if it is a known multisig. */
export function multisigLayoutOf(interfaces: readonly string[]): MultisigLayout | undefined {
    for (const name of interfaces) {
        const layout = LAYOUT_BY_INTERFACE.get(name);
        if (layout) return layout;
    }
    return undefined;
}

/**
 * Reads the members of a known multisig from its data cell. Returns null when the cell does not
 * have the layout's shape; trailing data is tolerated.
 *
 * v1 (@ton/ton `MultisigWallet`, the reference multisig-code.fc):
 *   wallet_id:uint32 n:uint8 k:uint8 last_cleaned:uint64
 *   owner_infos:(HashmapE 8 (public_key:bits256 flood:uint8)) pending_queries:(HashmapE 64 ^Query)
 * v2 (ton-blockchain/multisig-contract-v2):
 *   next_order_seqno:uint256 threshold:uint8 signers:^(Hashmap 8 MsgAddressInt) signers_num:uint8
 *   proposers:(HashmapE 8 MsgAddressInt) allow_arbitrary_order_seqno:Bool
 */
export function readMultisigMembers(layout: MultisigLayout, data: Cell): MultisigMembers | null {
    try {
        const s = data.beginParse();
        return layout === 'v1' ? readV1(s) : readV2(s);
    } catch {
        return null;
    }
}

/** An owner's entry: the key, then a flood counter we do not need. */
const OWNER_KEY: DictionaryValue<Buffer> = {
    serialize() {
        throw new Error('multisig owner entries are only read');
    },
    parse(s: Slice) {
        return s.loadBuffer(32);
    },
};

function readV1(s: Slice): MultisigMembers {
    s.skip(32 + 8 + 8 + 64); // wallet_id, n, k, last_cleaned
    const owners = s.loadDict(DictKeys.Uint(8), OWNER_KEY);
    return { addresses: [], publicKeys: unique(owners.values().map(key => key.toString('hex'))) };
}

function readV2(s: Slice): MultisigMembers {
    s.skip(256 + 8); // next_order_seqno, threshold
    const signers = Dictionary.loadDirect(DictKeys.Uint(8), Dictionary.Values.Address(), s.loadRef());
    s.skip(8); // signers_num
    const proposers = s.loadDict(DictKeys.Uint(8), Dictionary.Values.Address());
    s.loadBit(); // allow_arbitrary_order_seqno: its absence means the cell is not this layout
    const addresses = [...signers.values(), ...proposers.values()].map(formatRawAddress);
    return { addresses: unique(addresses), publicKeys: [] };
}

/** Members as (member, kind) pairs: addresses first, then public keys. */
export function memberEntries(members: MultisigMembers): Array<{ member: string; kind: 'address' | 'public_key' }> {
    return [
        ...members.addresses.map(member => ({ member, kind: 'address' as const })),
        ...members.publicKeys.map(member => ({ member, kind: 'public_key' as const })),
    ];
}

function unique(values: string[]): string[] {
    return [...new Set(values)];
}
