import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createOpenapiAjv, OPENAPI_SCHEMA_ID, openapiDocument, openapiYaml } from '../../src/api/openapi/document.ts';
import { assertResponseMatches, assertSchemaMatches, findOperation } from '../helpers/openapi-assert.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

const doc: Json = openapiDocument;
const schemas: Record<string, Json> = doc.components.schemas;
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

function operations(): { path: string; method: string; op: Json }[] {
    const out: { path: string; method: string; op: Json }[] = [];
    for (const [path, item] of Object.entries<Json>(doc.paths)) {
        for (const method of METHODS) if (item[method]) out.push({ path, method, op: item[method] });
    }
    return out;
}

function resolvePointer(ref: string): unknown {
    assert.ok(ref.startsWith('#/'), `only local refs are expected, got ${ref}`);
    let node: Json = doc;
    for (const raw of ref.slice(2).split('/')) {
        const segment = raw.replace(/~1/g, '/').replace(/~0/g, '~');
        if (node === null || typeof node !== 'object' || !(segment in node)) return undefined;
        node = node[segment];
    }
    return node;
}

function walk(node: unknown, visit: (value: Json, at: string) => void, at = '#'): void {
    if (node === null || typeof node !== 'object') return;
    visit(node, at);
    for (const [key, child] of Object.entries(node)) walk(child, visit, `${at}/${key}`);
}

function throwsAssertion(fn: () => void, pattern: RegExp): void {
    assert.throws(fn, (err: unknown) => {
        assert.ok(err instanceof assert.AssertionError, `expected an AssertionError, got ${String(err)}`);
        assert.match(err.message, pattern);
        return true;
    });
}

// ---- realistic values (block 17734191 of the mainnet masterchain, hand-completed) ----

const ELECTOR = '-1:3333333333333333333333333333333333333333333333333333333333333333';
const CONFIG = '-1:5555555555555555555555555555555555555555555555555555555555555555';
const WALLET = '0:83dfd552e63729b472fcbcc8c45ebcc6691702558b68ec7527e1ba403a0f31a8';
const OTHER = '0:2cf55953e92efbeadab7ba725c3f93a0b23f842cbba72d7b8e6f510a70e422e3';

function account(address: string, isWallet = false): Json {
    return { address, is_scam: false, is_wallet: isWallet };
}

function transaction(): Json {
    return {
        hash: '9c953c51e6cb6388e5ccd6690b94d11326f5a254dfb69fc566a674a527de810f',
        lt: 24836995000001,
        account: account(ELECTOR),
        success: true,
        utime: 1642757054,
        orig_status: 'active',
        end_status: 'active',
        total_fees: 0,
        end_balance: 2417139451228213,
        transaction_type: 'TransTickTock',
        state_update_old: '4d5f5f2d8f4e7cbd3a3c6e2e3c1c3e6a0d3b0cfd6b1a5c0a1e9a4d8b8c7e6f5a',
        state_update_new: 'a4d33b1d5b1bce1f3f7c6e0d9c4a8b7e6f5a4d3c2b1a0f9e8d7c6b5a49382716',
        out_msgs: [],
        block: '(-1,8000000000000000,17734191)',
        prev_trans_hash: 'b3a1c1e0f9d8c7b6a5948372615f4e3d2c1b0a99887766554433221100ffeedd',
        prev_trans_lt: 24836994000003,
        compute_phase: {
            skipped: false,
            success: true,
            gas_fees: 0,
            gas_used: 6431,
            vm_steps: 151,
            exit_code: 0,
            exit_code_description: 'Ok',
        },
        storage_phase: { fees_collected: 0, status_change: 'acst_unchanged' },
        aborted: false,
        destroyed: false,
        raw: 'b5ee9c72010207010001a2000382',
    };
}

function internalMessage(): Json {
    return {
        msg_type: 'int_msg',
        created_lt: 24836995000002,
        ihr_disabled: true,
        bounce: true,
        bounced: false,
        value: 1000000000,
        fwd_fee: 666672,
        ihr_fee: 0,
        import_fee: 0,
        created_at: 1642757054,
        hash: '0b6a5e7f8a9d3c2b1e0f4d5c6b7a8e9f0a1b2c3d4e5f60718293a4b5c6d7e8f9',
        source: account(WALLET, true),
        destination: account(OTHER),
        op_code: '0x0f8a7ea5',
        decoded_op_name: 'jetton_transfer',
        decoded_body: { query_id: '0', amount: '1000000' },
        raw_body: 'b5ee9c7201010101003500',
    };
}

function nativeTransferAction(): Json {
    return {
        type: 'NativeTransfer',
        status: 'ok',
        NativeTransfer: {
            sender: account(WALLET, true),
            recipient: account(OTHER),
            amount: 1500000000,
            comment: 'thanks',
        },
        simple_preview: {
            name: 'Gram Transfer',
            description: 'Transferring 1.5 gram',
            value: '1.5 gram',
            accounts: [account(WALLET, true), account(OTHER)],
        },
        base_transactions: ['d93787d0225a1c5b2a0bce2599b755fbd29c251f056bd1da83839f3db765f4bb'],
    };
}

function accountEvent(): Json {
    return {
        event_id: 'ca53acbff14ecc7dce82eed6667ba25f96d5dea5ec6ba2ce9e0c36338f49d81b',
        account: account(WALLET, true),
        timestamp: 1642757054,
        actions: [nativeTransferAction()],
        is_scam: false,
        lt: 24836995000001,
        in_progress: false,
        extra: -2850153,
        progress: 0,
    };
}

function risk(): Json {
    return { transfer_all_remaining_balance: false, native: 1500000000, gram: 1500000000, jettons: [], nfts: [] };
}

// ---- structure ----

describe('openapi document: structure', () => {
    it('is OpenAPI 3.1.0, version 2.0.0, with the local server', () => {
        assert.equal(doc.openapi, '3.1.0');
        assert.equal(doc.info.version, '2.0.0');
        assert.ok(doc.info.description);
        assert.deepEqual(doc.servers.map((s: Json) => s.url), ['http://127.0.0.1:8081']);
        assert.ok(openapiYaml.length > 1000);
        const tagNames = new Set(doc.tags.map((t: Json) => t.name));
        for (const { op } of operations()) for (const tag of op.tags) assert.ok(tagNames.has(tag), `tag ${tag} is declared`);
    });

    it('resolves every $ref', () => {
        const broken: string[] = [];
        let count = 0;
        walk(doc, (node, at) => {
            if (typeof node.$ref === 'string') {
                count++;
                if (resolvePointer(node.$ref) === undefined) broken.push(`${at}: ${node.$ref}`);
            }
        });
        assert.ok(count > 100);
        assert.deepEqual(broken, []);
    });

    it('compiles every component schema', () => {
        const ajv = createOpenapiAjv();
        for (const name of Object.keys(schemas)) {
            assert.doesNotThrow(() => ajv.compile({ $ref: `${OPENAPI_SCHEMA_ID}#/components/schemas/${name}` }), name);
        }
    });

    it('closes every response object and lists only declared properties as required', () => {
        const requestSchemas = new Set([
            'PublicKeysRequest',
            'BocRequest',
            'EmulationBocRequest',
            'EmulationAccountParams',
            'SendMessageRequest',
            'FaucetRequest',
        ]);
        const problems: string[] = [];
        for (const [name, schema] of Object.entries(schemas)) {
            walk(schema, (node, at) => {
                if (!node.properties) return;
                const where = `${name}${at.slice(1)}`;
                for (const req of node.required ?? []) if (!(req in node.properties)) problems.push(`${where}: required ${req} undeclared`);
                if (!requestSchemas.has(name) && node.additionalProperties !== false) problems.push(`${where}: not closed`);
            });
        }
        assert.deepEqual(problems, []);
    });

    it('gives every operation a unique operationId, a 200 and the shared default error', () => {
        const ids = new Set<string>();
        for (const { path, method, op } of operations()) {
            const where = `${method.toUpperCase()} ${path}`;
            assert.equal(typeof op.operationId, 'string', where);
            assert.ok(!ids.has(op.operationId), `duplicate ${op.operationId}`);
            ids.add(op.operationId);
            assert.ok(op.responses['200'], `${where} has 200`);
            assert.deepEqual(op.responses.default, { $ref: '#/components/responses/Error' }, `${where} default`);
            for (const [status, response] of Object.entries<Json>(op.responses)) {
                if (status === '200' || status === 'default') continue;
                assert.match(status, /^[45][0-9]{2}$/, where);
                const resolved: Json = response.$ref ? resolvePointer(response.$ref) : response;
                assert.equal(resolved.content['application/json'].schema.$ref, '#/components/schemas/Error', `${where} ${status}`);
            }
        }
    });

    it('declares every path template parameter, each with a schema', () => {
        for (const { path, method, op } of operations()) {
            const params: Json[] = (op.parameters ?? []).map((p: Json) => (p.$ref ? resolvePointer(p.$ref) : p));
            for (const p of params) assert.ok(p.schema && p.name && p.in, `${method} ${path} parameter ${p.name}`);
            const inPath = params.filter((p) => p.in === 'path').map((p) => p.name).sort();
            const templated = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]).sort();
            assert.deepEqual(inPath, templated, `${method} ${path}`);
            for (const p of params.filter((q) => q.in === 'path')) assert.equal(p.required, true);
        }
    });

    it('has the 8 operations of the interface specification and the service operations', () => {
        const expected: [string, string, string][] = [
            ['getRoundRewards', 'get', '/v2/rewards/round-rewards'],
            ['getAccountJettonsHistory', 'get', '/v2/accounts/{account_id}/jettons/history'],
            ['getWalletsByPublicKeyBulk', 'post', '/v2/pubkeys/wallets/_bulk'],
            ['getTrace', 'get', '/v2/traces/{trace_id}'],
            ['getMultisigOrder', 'get', '/v2/multisig/order/{account_id}'],
            ['getReducedBlockchainBlocks', 'get', '/v2/blockchain/reduced/blocks'],
            ['emulateMessageToAccountEvent', 'post', '/v2/accounts/{account_id}/events/emulate'],
            ['emulateMessageToWallet', 'post', '/v2/wallet/emulate'],
            ['getStatus', 'get', '/v2/status'],
            ['getBlockchainAccountTransactions', 'get', '/v2/blockchain/accounts/{account_id}/transactions'],
            ['getBlockchainBlockTransactions', 'get', '/v2/blockchain/blocks/{block_id}/transactions'],
            ['sendBlockchainMessage', 'post', '/v2/blockchain/message'],
            ['getDevnetManifest', 'get', '/v2/devnet/manifest'],
            ['getDevnetGlobalConfig', 'get', '/v2/devnet/global-config'],
            ['getDevnetMetadata', 'get', '/v2/devnet/metadata/{document}'],
            ['devnetFaucet', 'post', '/v2/devnet/faucet'],
            ['getOpenapiJson', 'get', '/v2/openapi.json'],
            ['getOpenapiYml', 'get', '/v2/openapi.yml'],
        ];
        for (const [id, method, path] of expected) {
            const found = findOperation(id);
            assert.deepEqual([found.method, found.path], [method, path], id);
        }
        assert.equal(operations().length, expected.length);
    });

    it('documents the parameters the contract names', () => {
        const params = (id: string): Record<string, Json> =>
            Object.fromEntries(
                (findOperation(id).operation.parameters ?? []).map((p: Json) => {
                    const q = p.$ref ? resolvePointer(p.$ref) : p;
                    return [q.name, q];
                }),
            );
        const history = params('getAccountJettonsHistory');
        assert.equal(history.before_lt.required, false);
        assert.equal(history.before_lt.schema.format, 'int64');
        assert.equal(history.limit.required, true);
        assert.deepEqual([history.limit.schema.minimum, history.limit.schema.maximum], [1, 1000]);
        const blocks = params('getReducedBlockchainBlocks');
        for (const name of ['from', 'to']) {
            assert.equal(blocks[name].required, true);
            assert.equal(blocks[name].schema.format, 'int64');
            assert.equal(blocks[name].description, 'unix seconds, from <= to, to - from <= 600');
        }
        assert.deepEqual(Object.keys(params('getRoundRewards')).sort(), ['block', 'election_id', 'shallow', 'unixtime']);
        assert.equal(params('emulateMessageToAccountEvent').ignore_signature_check.schema.type, 'boolean');
        assert.ok(params('emulateMessageToAccountEvent')['Accept-Language']);
        assert.ok(params('emulateMessageToWallet').currency);
        assert.ok(params('emulateMessageToWallet')['Accept-Language']);
        assert.equal(params('getBlockchainAccountTransactions').limit.schema.default, 100);
        const headers = findOperation('getTrace').operation.responses['200'].headers;
        assert.ok(headers['X-Trace-Complete'] && headers['X-Trace-Pending']);
        for (const id of ['getWalletsByPublicKeyBulk', 'emulateMessageToAccountEvent', 'emulateMessageToWallet', 'sendBlockchainMessage', 'devnetFaucet']) {
            const body = findOperation(id).operation.requestBody;
            const resolved: Json = body.$ref ? resolvePointer(body.$ref) : body;
            assert.equal(resolved.required, true, id);
        }
    });

    it('uses the interface names for action members and the renamed fields', () => {
        const action = schemas.Action;
        const kinds: string[] = action.properties.type.enum;
        assert.equal(kinds.length, 33);
        assert.ok(kinds.includes('Unknown'));
        for (const kind of kinds.filter((k) => k !== 'Unknown')) assert.ok(action.properties[kind], `member ${kind}`);
        assert.equal(Object.keys(action.properties).length, 4 + 32);
        assert.ok(!JSON.stringify(doc).match(/TonTransfer|ton_in|ton_out|ton_attached|"ton"/));
        assert.deepEqual(schemas.Risk.required.sort(), ['gram', 'jettons', 'native', 'nfts', 'transfer_all_remaining_balance']);
        assert.ok(schemas.JettonSwapAction.properties.native_in && schemas.JettonSwapAction.properties.native_out);
        assert.ok(schemas.SmartContractAction.properties.native_attached);
        assert.ok(!schemas.Transaction.required.includes('end_balance'));
        assert.equal(schemas.Transaction.required.length, 16);
        assert.equal(schemas.Message.required.length, 11);
    });
});

// ---- safe for generated clients ----

/**
 * int64 values a generated JavaScript client may read as plain numbers: they stay far below 2^53
 * (unix seconds, block seqnos, small codes and durations). Every other int64 (amounts, logical
 * times, balances, fees, NFT indexes) carries `x-js-format: bigint`. Keys are JSON pointers.
 */
const NUMBER_INT64: Record<string, string> = {
    '#/paths/~1v2~1rewards~1round-rewards/get/parameters/0/schema': 'election_id: a unix time',
    '#/paths/~1v2~1blockchain~1reduced~1blocks/get/parameters/0/schema': 'from: unix seconds',
    '#/paths/~1v2~1blockchain~1reduced~1blocks/get/parameters/1/schema': 'to: unix seconds',
    '#/components/schemas/Error/properties/error_code': 'an error code, small',
    '#/components/schemas/RoundRewardsResponse/properties/response_time_ms': 'a duration in milliseconds',
    '#/components/schemas/RoundRewardsResponse/properties/election_id': 'a unix time',
    '#/components/schemas/RoundRewardsResponse/properties/prev_election_id': 'a unix time',
    '#/components/schemas/RoundRewardsResponse/properties/next_election_id': 'a unix time',
    '#/components/schemas/JettonOperation/properties/utime': 'unix seconds',
    '#/components/schemas/Wallet/properties/last_activity': 'unix seconds',
    '#/components/schemas/Message/properties/created_at': 'unix seconds',
    '#/components/schemas/Transaction/properties/utime': 'unix seconds',
    '#/components/schemas/MultisigOrder/properties/expiration_date': 'unix seconds',
    '#/components/schemas/MultisigOrder/properties/creation_date': 'unix seconds',
    '#/components/schemas/ReducedBlock/properties/utime': 'unix seconds',
    '#/components/schemas/AccountEvent/properties/timestamp': 'unix seconds',
    '#/components/schemas/Status/properties/lag_seconds': 'seconds',
    '#/components/schemas/IndexHead/properties/seqno': 'a block seqno (uint32)',
    '#/components/schemas/IndexHead/properties/utime': 'unix seconds',
    '#/components/schemas/IndexHead/properties/chain_seqno': 'a block seqno (uint32)',
    '#/components/schemas/IndexHead/properties/lag_blocks': 'a difference of block seqnos',
    '#/components/schemas/DevnetManifest/properties/genesis_utime': 'unix seconds',
    '#/components/schemas/DevnetAccount/properties/wallet_id': 'a wallet id (uint32)',
};

/** JSON pointer of a walked location (`#/a/b`), its segments escaped. */
function pointerOf(at: string): string {
    return at.split('/').map((segment, i) => (i === 0 ? segment : segment.replace(/~/g, '~0'))).join('/');
}

describe('openapi document: safe for generated clients', () => {
    it('marks every int64 amount, lt and balance x-js-format: bigint; the rest are listed with a reason', () => {
        const unmarked: string[] = [];
        const marked: string[] = [];
        const visit = (node: Json, at: string[]) => {
            if (node === null || typeof node !== 'object') return;
            if (node.type === 'integer' && node.format === 'int64') {
                const pointer = ['#', ...at.map((s) => s.replace(/~/g, '~0').replace(/\//g, '~1'))].join('/');
                (node['x-js-format'] === 'bigint' ? marked : unmarked).push(pointer);
            }
            for (const [key, child] of Object.entries(node)) visit(child, [...at, key]);
        };
        visit(doc, []);
        assert.deepEqual(unmarked.sort(), Object.keys(NUMBER_INT64).sort(), 'int64 values without x-js-format: bigint are exactly the listed ones');
        assert.ok(marked.length >= 50, `${marked.length} bigint values`);
        for (const must of ['Transaction/properties/lt', 'Transaction/properties/end_balance', 'Message/properties/value', 'Wallet/properties/balance',
            'AccountEvent/properties/extra', 'NativeTransferAction/properties/amount', 'Risk/properties/native', 'NftItem/properties/index',
            'JettonOperations/properties/next_from', 'EmulationAccountParams/properties/balance', 'InsufficientFunds/properties/required']) {
            assert.ok(marked.includes(`#/components/schemas/${must}`), must);
        }
        assert.ok(marked.includes('#/paths/~1v2~1accounts~1{account_id}~1jettons~1history/get/parameters/1/schema'), 'before_lt');
        // x-js-format only ever says bigint, and only on 64-bit integers and integers written as strings.
        const INTEGER_STRING = new Set(['^-?[0-9]+$', '^(-?[0-9]+)?$', '^0x[0-9a-f]{8}$']);
        walk(doc, (node, at) => {
            if ('x-js-format' in node) {
                assert.equal(node['x-js-format'], 'bigint', at);
                const integerString = node.$ref === '#/components/schemas/BigIntString' || (node.type === 'string' && INTEGER_STRING.has(node.pattern));
                assert.ok(integerString || (node.type === 'integer' && node.format === 'int64'), pointerOf(at));
            }
        });
    });

    it('marks the integers written as strings x-js-format: bigint, as the upstream document does', () => {
        walk(doc, (node, at) => {
            if (node.$ref === '#/components/schemas/BigIntString') assert.equal(node['x-js-format'], 'bigint', pointerOf(at));
        });
        assert.equal(schemas.BigIntString['x-js-format'], 'bigint');
        for (const [schema, property] of [['JettonOperation', 'amount'], ['JettonOperation', 'query_id'], ['Price', 'value'], ['ExtraCurrency', 'amount'],
            ['JettonQuantity', 'quantity'], ['JettonTransferAction', 'amount'], ['JettonSwapAction', 'amount_in'], ['JettonSwapAction', 'amount_out'], ['Message', 'op_code']]) {
            assert.equal(schemas[schema].properties[property]['x-js-format'], 'bigint', `${schema}.${property}`);
        }
    });

    it('requires SmartContractAction.gram_attached, which is always emitted', () => {
        assert.ok(schemas.SmartContractAction.required.includes('gram_attached'));
        assert.ok(schemas.SmartContractAction.required.includes('native_attached'));
        throwsAssertion(
            () => assertSchemaMatches('SmartContractAction', { executor: account(WALLET, true), contract: account(OTHER), native_attached: 1, operation: '0x12345678' }),
            /required property 'gram_attached'/,
        );
    });

    it('states the block id format with examples', () => {
        const param: Json = doc.components.parameters.BlockId;
        assert.match(param.description, /\(workchain,shard,seqno\)/);
        assert.match(param.description, /\(0,8000000000000000,4234234\)/);
        assert.equal(param.example, '(0,8000000000000000,4234234)');
        const schema: Json = resolvePointer(param.schema.$ref);
        const pattern = new RegExp(schema.pattern);
        assert.ok(pattern.test(param.example), 'the example matches the pattern');
        for (const example of schema.examples) assert.ok(pattern.test(example), example);
        assert.ok(!pattern.test('(0,8000000000000000)') && !pattern.test('(0,80,1)') && !pattern.test('0,8000000000000000,1'));
        assert.match(doc.info.description, /\(workchain,shard,seqno\)/);
        assert.match(doc.info.description, /`\(0,8000000000000000,4234234\)`/);
        for (const example of schemas.BlockIdString.examples) assert.ok(new RegExp(schemas.BlockIdString.pattern).test(example), example);
    });

    it('keeps the brand word out of the description (the chain name TON stays)', () => {
        assert.doesNotMatch(doc.info.description, /ton\s*api/i);
        assert.doesNotMatch(doc.info.title, /ton\s*api/i);
        assert.match(doc.info.description, /TON blockchain/);
        const descriptions: string[] = [];
        walk(doc, (node) => {
            if (typeof node.description === 'string') descriptions.push(node.description);
            if (typeof node.summary === 'string') descriptions.push(node.summary);
        });
        for (const text of descriptions) assert.doesNotMatch(text, /ton\s*api/i, text);
    });

    it('gives every request pattern words a 400 can say instead of the regular expression', () => {
        const requestSchemas: Array<[string, Json]> = [];
        for (const { path, method, op } of operations()) {
            for (const p of op.parameters ?? []) {
                const q: Json = p.$ref ? resolvePointer(p.$ref) : p;
                requestSchemas.push([`${method} ${path} ${q.name}`, q.schema]);
            }
            if (op.requestBody) {
                const body: Json = op.requestBody.$ref ? resolvePointer(op.requestBody.$ref) : op.requestBody;
                requestSchemas.push([`${method} ${path} body`, body.content['application/json'].schema]);
            }
        }
        const seen = new Set<unknown>();
        const problems: string[] = [];
        const visit = (node: Json, where: string) => {
            if (node === null || typeof node !== 'object' || seen.has(node)) return;
            seen.add(node);
            if (typeof node.$ref === 'string') visit(resolvePointer(node.$ref), `${where} → ${node.$ref}`);
            if (typeof node.pattern === 'string' && typeof node['x-expected'] !== 'string') problems.push(`${where}: pattern without x-expected`);
            if (node.type === 'string' && !node.pattern && !node.enum && !node.$ref) problems.push(`${where}: a free string`);
            for (const [key, child] of Object.entries(node)) if (key !== '$ref') visit(child, `${where}/${key}`);
        };
        for (const [where, schema] of requestSchemas) visit(schema, where);
        // Free text by nature: a currency code (checked against the rates table) and a language list.
        const free = problems.filter((p) => !/ currency: a free string$| Accept-Language: a free string$/.test(p));
        assert.deepEqual(free, []);
    });
});

// ---- validation spot checks ----

describe('openapi document: validation', () => {
    it('accepts a realistic transaction and rejects real mistakes', () => {
        assertSchemaMatches('Transaction', transaction());
        assertSchemaMatches('Transaction', { ...transaction(), in_msg: internalMessage(), out_msgs: [internalMessage()] });
        const { end_balance: _unused, ...withoutBalance } = transaction();
        assertSchemaMatches('Transaction', withoutBalance);

        throwsAssertion(() => assertSchemaMatches('Transaction', { ...transaction(), lt: '24836995000001' }), /\/lt: must be integer/);
        throwsAssertion(() => assertSchemaMatches('Transaction', { ...transaction(), total_fee: 0 }), /must NOT have additional properties 'total_fee'/);
        throwsAssertion(() => assertSchemaMatches('Transaction', { ...transaction(), block: '(-1,17734191,8000000000000000)' }), /\/block: must match pattern/);
        throwsAssertion(() => assertSchemaMatches('Transaction', { ...transaction(), hash: transaction().hash.toUpperCase() }), /\/hash/);
        throwsAssertion(() => assertSchemaMatches('Transaction', { ...transaction(), orig_status: 'Active' }), /\/orig_status: must be equal to one of the allowed values/);
        throwsAssertion(
            () => assertSchemaMatches('Transaction', { ...transaction(), account: account('EQCD39VS5jcptHL8vMjEXrzGaRcCVYto7HUn4bpAOg8xqB2N') }),
            /\/account\/address: must match pattern/,
        );
        throwsAssertion(
            () => assertSchemaMatches('Transaction', { ...transaction(), compute_phase: { ...transaction().compute_phase, exit_code: 2 ** 31 } }),
            /\/compute_phase\/exit_code: must match format "int32"/,
        );
        const { raw: _raw, ...withoutRaw } = transaction();
        throwsAssertion(() => assertSchemaMatches('Transaction', withoutRaw), /must have required property 'raw'/);
    });

    it('checks messages: op codes, message types, free-form decoded body', () => {
        assertSchemaMatches('Message', internalMessage());
        assertSchemaMatches('Message', { ...internalMessage(), decoded_body: 'any JSON value' });
        throwsAssertion(() => assertSchemaMatches('Message', { ...internalMessage(), op_code: '0xf8a7ea5' }), /\/op_code/);
        throwsAssertion(() => assertSchemaMatches('Message', { ...internalMessage(), op_code: 260734629 }), /\/op_code: must be string/);
        throwsAssertion(() => assertSchemaMatches('Message', { ...internalMessage(), msg_type: 'internal' }), /\/msg_type/);
    });

    it('accepts a NativeTransfer action and rejects upstream names and stray fields', () => {
        assertSchemaMatches('Action', nativeTransferAction());
        assertSchemaMatches('Action', {
            type: 'Unknown',
            status: 'ok',
            simple_preview: { name: 'Unknown', description: "Something happened but we don't understand what.", accounts: [] },
            base_transactions: [],
        });
        const upstream = { ...nativeTransferAction(), type: 'TonTransfer' };
        throwsAssertion(() => assertSchemaMatches('Action', upstream), /\/type: must be equal to one of the allowed values/);
        const { NativeTransfer, ...rest } = nativeTransferAction();
        throwsAssertion(() => assertSchemaMatches('Action', { ...rest, TonTransfer: NativeTransfer }), /additional properties 'TonTransfer'/);
        throwsAssertion(
            () => assertSchemaMatches('Action', { ...nativeTransferAction(), NativeTransfer: { ...NativeTransfer, amount: '1500000000' } }),
            /\/NativeTransfer\/amount: must be integer/,
        );
        throwsAssertion(() => assertSchemaMatches('Action', { ...nativeTransferAction(), status: 'success' }), /\/status/);
    });

    it('checks other action members', () => {
        const jetton = {
            address: '0:b113a994b5024a16719f69139328eb759596c38a25f59028b146fecdc3621dfe',
            name: 'Tether USD',
            symbol: 'USD₮',
            decimals: 6,
            image: 'https://example.invalid/usdt.png',
            verification: 'whitelist',
            score: 0,
        };
        const swap = {
            dex: 'stonfi',
            amount_in: '',
            amount_out: '1000000',
            native_in: 1000000000,
            user_wallet: account(WALLET, true),
            router: account(OTHER),
            jetton_master_out: jetton,
        };
        assertSchemaMatches('JettonSwapAction', swap);
        throwsAssertion(() => assertSchemaMatches('JettonSwapAction', { ...swap, ton_in: 1 }), /additional properties 'ton_in'/);
        assertSchemaMatches('SmartContractAction', {
            executor: account(WALLET, true),
            contract: account(OTHER),
            native_attached: 50000000,
            gram_attached: 50000000,
            operation: '0x12345678',
        });
        throwsAssertion(
            () => assertSchemaMatches('JettonTransferAction', { senders_wallet: OTHER, recipients_wallet: OTHER, amount: 1000000, jetton }),
            /\/amount: must be string/,
        );
    });

    it('checks risk, event and wallet emulation responses', () => {
        assertSchemaMatches('Risk', risk());
        assertSchemaMatches('Risk', { ...risk(), total_equivalent: 3 });
        throwsAssertion(() => assertSchemaMatches('Risk', { ...risk(), total_equivalent: 3.25 }), /total_equivalent: must be integer/);
        const { native: _n, ...noNative } = risk();
        throwsAssertion(() => assertSchemaMatches('Risk', noNative), /required property 'native'/);
        assertResponseMatches('emulateMessageToAccountEvent', 200, accountEvent());
        throwsAssertion(() => assertResponseMatches('emulateMessageToAccountEvent', 200, { ...accountEvent(), progress: 1.5 }), /\/progress/);
        assertResponseMatches('emulateMessageToWallet', 200, {
            trace: { transaction: transaction(), interfaces: [], children: [{ transaction: transaction(), interfaces: ['wallet_v4r2'], emulated: true }], emulated: true },
            risk: risk(),
            event: accountEvent(),
        });
        throwsAssertion(
            () => assertResponseMatches('getTrace', 200, { transaction: transaction(), interfaces: [], children: [{ transaction: { ...transaction(), lt: -0.5 }, interfaces: [] }] }),
            /\/children\/0\/transaction\/lt/,
        );
    });

    it('checks error bodies through explicit and default responses', () => {
        assertResponseMatches('getTrace', 404, { error: 'entity not found' });
        assertResponseMatches('getTrace', 500, { error: 'unknown error' });
        assertResponseMatches('emulateMessageToWallet', 409, {
            error: 'insufficient gram for gas',
            error_code: 50000,
            details: { required: 12000000, available: 100 },
        });
        throwsAssertion(() => assertResponseMatches('getTrace', 400, { Error: 'decode params' }), /required property 'error'/);
        throwsAssertion(() => assertResponseMatches('getTrace', 400, { error: 'x', details: { required: 1 } }), /\/details/);
    });

    it('checks the remaining 200 bodies', () => {
        assertResponseMatches('getReducedBlockchainBlocks', 200, {
            blocks: [
                {
                    workchain_id: -1,
                    shard: '8000000000000000',
                    seqno: 17734191,
                    tx_quantity: 6,
                    utime: 1642757054,
                    shards_blocks: ['(0,8000000000000000,22738548)'],
                    parent: ['(-1,8000000000000000,17734190)'],
                },
            ],
        });
        throwsAssertion(
            () => assertResponseMatches('getReducedBlockchainBlocks', 200, { blocks: [{ workchain_id: 0, shard: '8000000000000000', seqno: 1, tx_quantity: 0, utime: 1, shards_blocks: ['[(0,8000000000000000,1)]'], parent: [] }] }),
            /\/blocks\/0\/shards_blocks\/0: must match pattern/,
        );
        assertResponseMatches('getAccountJettonsHistory', 200, { operations: [] });
        assertResponseMatches('getRoundRewards', 200, {
            response_time_ms: 812,
            election_id: 1739958792,
            prev_election_id: 1739893256,
            next_election_id: 1740024328,
            round_start: '2025-02-19T09:53:12Z',
            round_end: '2025-02-20T04:05:28Z',
            start_block: 44531312,
            end_block: 44553210,
            total_bonuses: 54213779012345,
            total_stake: 488318217000000000,
            validators: [
                {
                    rank: 1,
                    public_key: '3bfc5a4e3d1b0d6b2b8d7a3e7d0c3f9e1a2b3c4d5e6f708192a3b4c5d6e7f809',
                    effective_stake: 1600000000000000,
                    weight: 0.0032765,
                    reward: 177628000000,
                    pool: 'Ef8zMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzM0vF',
                },
            ],
        });
        throwsAssertion(
            () => assertResponseMatches('getRoundRewards', 200, { response_time_ms: 1, election_id: 1, round_start: 'yesterday', round_end: '2025-02-20T04:05:28Z', start_block: -1, end_block: 1, total_bonuses: 1, total_stake: 1, validators: [] }),
            /\/round_start: must match format "date-time"[\s\S]*\/start_block/,
        );
        assertResponseMatches('getStatus', 200, {
            source: 'devnet',
            heads: [{ workchain_id: -1, shard: '8000000000000000', seqno: 12, utime: 1760000000, chain_seqno: 12, lag_blocks: 0 }],
            lag_seconds: 0,
        });
        assertResponseMatches('getBlockchainBlockTransactions', 200, { transactions: [transaction()] });
        assertResponseMatches('getDevnetManifest', 200, {
            network: 'devnet',
            global_id: -239,
            genesis_utime: 1760000000,
            accounts: [
                {
                    name: 'alice',
                    kind: 'wallet_v4r2',
                    address: WALLET,
                    friendly_address: 'UQCD39VS5jcptHL8vMjEXrzGaRcCVYto7HUn4bpAOg8xqEBI',
                    workchain_id: 0,
                    public_key: 'a'.repeat(64),
                    secret_key: 'b'.repeat(128),
                    wallet_id: 698983191,
                },
            ],
        });
        assertResponseMatches('devnetFaucet', 200, { address: WALLET, amount: 5000000000, message_hash: 'c'.repeat(64), trace_id: 'd'.repeat(64) });
        assertResponseMatches('sendBlockchainMessage', 200, { message_hash: 'c'.repeat(64) });
        assertResponseMatches('getOpenapiJson', 200, JSON.parse(JSON.stringify(doc)));
        assertResponseMatches('getWalletsByPublicKeyBulk', 200, {
            items: [
                {
                    public_key: 'a'.repeat(64),
                    wallets: [
                        {
                            address: WALLET,
                            is_wallet: true,
                            balance: 3141592653,
                            stats: { nfts_count: 0, jettons_count: 1, multisig_count: 0, staking_count: 0 },
                            plugins: [],
                            status: 'active',
                            last_activity: 1760000000,
                            get_methods: ['seqno', 'get_public_key'],
                            last_lt: 24836995000003,
                        },
                    ],
                },
            ],
        });
        assertResponseMatches('getMultisigOrder', 200, {
            address: OTHER,
            order_seqno: '3',
            threshold: 2,
            sent_for_execution: false,
            signers: [WALLET, CONFIG],
            approvals_num: 1,
            expiration_date: 1760086400,
            risk: risk(),
            creation_date: 1760000000,
            signed_by: [WALLET],
            multisig_address: CONFIG,
        });
    });

    it('names unknown operations and statuses clearly', () => {
        throwsAssertion(() => assertResponseMatches('getTonTransfer', 200, {}), /not in the OpenAPI document/);
        throwsAssertion(() => assertSchemaMatches('TonTransferAction', {}), /not in the OpenAPI document/);
    });
});
