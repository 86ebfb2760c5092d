import { Cell } from '@ton/core';
import { readBoc } from './boc-reader.ts';

/**
 * Makes `Cell.fromBoc` (and `Cell.fromBase64`, which calls it) read with boc-reader.ts. Imported by
 * the devnet's producer thread only: @ton/sandbox parses every transaction and account the TVM
 * returns with it, which made that parse about a tenth of a loaded devnet's producer time. Its
 * inputs there are the TVM's own output; BOCs from clients keep @ton/core's stricter reader.
 */
Cell.fromBoc = readBoc;
