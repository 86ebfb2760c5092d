import { type Cell, Dictionary, type Slice } from '@ton/core';
import { DictKeys } from '../cells/dict-keys.ts';

// _ config_addr:bits256 config:^(Hashmap 32 ^Cell) = ConfigParams;

export interface ConfigParams {
    configAddr: Buffer;
    /** Raw parameter cells keyed by parameter number. */
    config: Dictionary<number, Cell>;
    /** The dictionary's root cell, as emulators take it. */
    root: Cell;
}

export function loadConfigParams(slice: Slice): ConfigParams {
    const configAddr = slice.loadBuffer(32);
    const root = slice.loadRef();
    const config = Dictionary.loadDirect(DictKeys.Int(32), Dictionary.Values.Cell(), root);
    return { configAddr, config, root };
}
