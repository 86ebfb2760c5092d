import { Address, Cell } from '@ton/core';
import { runTolkCompiler } from '@ton/tolk-js';
import { runtime, text } from 'ton-assembly';

/**
 * Code with the FunC/Tolk layout (`SETCP0; DICTPUSHCONST 19 …; DICTIGETJMPZ; 11 THROWARG`),
 * assembled from TVM assembly text (ton-assembly, a dependency of @ton/sandbox): method id → body.
 */
export function assemble(methods: Record<number, string>): Cell {
    const entries = Object.entries(methods)
        .map(([id, body]) => `    ${id} => {\n        ${body.split('\n').join('\n        ')}\n    }`)
        .join('\n');
    const source = `SETCP 0\nDICTPUSHCONST 19 [\n${entries}\n]\nDICTIGETJMPZ\nTHROWARG 11\n`;
    const parsed = text.parse('test.tasm', source);
    if (parsed.$ !== 'ParseSuccess') throw new Error(`assembly: ${JSON.stringify(parsed.error)}`);
    return runtime.compileCell(parsed.instructions);
}

export { libraryCell } from '../../../src/ton/libraries.ts';

/** Compiles one Tolk source file (no imports besides @stdlib) with @ton/tolk-js. */
export async function compileTolk(source: string): Promise<Cell> {
    const result = await runTolkCompiler({
        entrypointFileName: 'main.tolk',
        fsReadCallback: (path: string) => {
            if (path === 'main.tolk') return source;
            throw new Error(`unexpected import ${path}`);
        },
    });
    if (result.status !== 'ok') throw new Error(`tolk: ${result.message}`);
    return Cell.fromBase64(result.codeBoc64);
}

export function testAddress(seed: number, workchain = 0): Address {
    return new Address(workchain, Buffer.alloc(32, seed));
}
