import { Address, beginCell, Cell, loadMessage, storeMessage, type Message } from '@ton/core';
import { InputFormatError, parseBocInput } from '../ton/input.ts';

export interface RootMessage {
    cell: Cell;
    message: Message;
}

/** The `boc` of an emulation request: one root cell holding a whole TL-B `Message`. */
export function parseRootMessage(boc: string): RootMessage {
    const cell = parseBocInput(boc);
    let message: Message;
    try {
        // An inline body is the rest of the cell, so whatever parses up to it is a whole message.
        message = loadMessage(cell.beginParse());
    } catch (error) {
        throw new InputFormatError(`boc is not a message (TL-B Message): ${(error as Error).message}`);
    }
    return { cell, message };
}

/** An inbound external message with a destination, as a wallet message must be. */
export function requireExternalIn(root: RootMessage): Address {
    const info = root.message.info;
    if (info.type !== 'external-in') {
        throw new InputFormatError(`a wallet message must be an inbound external message (ext_in_msg_info), this one is ${info.type === 'internal' ? 'an internal message' : 'an outbound external message'}`);
    }
    return info.dest;
}

/** The same external message sent to another address (body and StateInit unchanged). */
export function redirectExternal(root: RootMessage, destination: Address): RootMessage {
    const info = root.message.info;
    if (info.type !== 'external-in') throw new InputFormatError('only an inbound external message can be redirected');
    const message: Message = { ...root.message, info: { ...info, dest: destination } };
    return { cell: beginCell().store(storeMessage(message)).endCell(), message };
}
