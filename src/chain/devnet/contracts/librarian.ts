import { Address, Cell, beginCell, contractAddress, type StateInit } from '@ton/core';
import { contractCode } from './artifacts.ts';
import { storeQueryId } from './payload.ts';

/**
 * The devnet's librarian (contracts/librarian.tolk): a masterchain contract whose owner publishes
 * cells as public libraries of the chain, the way jetton wallet codes are published on mainnet.
 */

export const LIBRARIAN_OP = {
    /** publish_library#7075626c query_id:uint64 library:^Cell */
    publish: 0x7075626c,
    /** withdraw_library#7769746c query_id:uint64 library_hash:uint256 */
    withdraw: 0x7769746c,
} as const;

/** Grams to attach to a publish: the masterchain's gas and the library's first storage fees. */
export const LIBRARIAN_TON = { publish: 2_000_000_000n } as const;

/** owner:MsgAddressInt */
export function librarianStateInit(owner: Address): StateInit {
    return { code: contractCode('librarian'), data: beginCell().storeAddress(owner).endCell() };
}

export function librarianAddress(owner: Address): Address {
    return contractAddress(-1, librarianStateInit(owner));
}

export function publishLibraryBody(library: Cell, queryId?: bigint): Cell {
    return storeQueryId(beginCell().storeUint(LIBRARIAN_OP.publish, 32), queryId).storeRef(library).endCell();
}

export function withdrawLibraryBody(libraryHash: Buffer, queryId?: bigint): Cell {
    return storeQueryId(beginCell().storeUint(LIBRARIAN_OP.withdraw, 32), queryId).storeBuffer(libraryHash, 32).endCell();
}
