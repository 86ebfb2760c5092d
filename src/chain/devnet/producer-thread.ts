import { parentPort, workerData } from 'node:worker_threads';
import { Address, Cell } from '@ton/core';
import { MessageRejectedError } from '../message-sink.ts';
import { InputFormatError } from '../../ton/input.ts';
import { DevnetProducer, type DevnetOptions } from './devnet-producer.ts';
import type { ProducerCommand, ProducerEvent, SerializedError } from './producer-protocol.ts';

// The devnet's block producer in a thread of its own: the TVM and the collator use one core while
// the indexer and the API read the blocks it commits on the other.

const port = parentPort!;
const post = (event: ProducerEvent) => port.postMessage(event);
const options = workerData as DevnetOptions;
const producer = new DevnetProducer(options);

function serialize(error: unknown): SerializedError {
    const message = error instanceof Error ? error.message : String(error);
    if (error instanceof MessageRejectedError) return { kind: 'rejected', message };
    if (error instanceof InputFormatError) return { kind: 'input', message };
    return { kind: 'error', message };
}

producer.onProduced((lastSeq, stats) => post({ type: 'produced', lastSeq, head: producer.head(), seeded: producer.seeded, stats }));
producer.onSeedProgress(progress => post({ type: 'seeded', progress }));
producer.onWarning(message => post({ type: 'warning', message }));
producer.onFailure(error => post({ type: 'failure', message: error.message }));

port.on('message', (command: ProducerCommand) => {
    switch (command.type) {
        case 'send':
            producer.sendExternalMessage(Cell.fromBoc(Buffer.from(command.boc))[0]).then(
                sent => post({ type: 'result', id: command.id, sent }),
                error => post({ type: 'result', id: command.id, error: serialize(error) }),
            );
            return;
        case 'faucet':
            producer.faucet(Address.parseRaw(command.to), command.amount).then(
                sent => post({ type: 'result', id: command.id, sent }),
                error => post({ type: 'result', id: command.id, error: serialize(error) }),
            );
            return;
        case 'pause':
            producer.pause().then(() => post({ type: 'result', id: command.id }), error => post({ type: 'result', id: command.id, error: serialize(error) }));
            return;
        case 'resume':
            producer.resume();
            return;
        case 'stop':
            producer.stop().then(() => post({ type: 'stopped' }), error => post({ type: 'fatal', message: (error as Error).message }));
            return;
    }
});

producer.start().then(
    () => post({ type: 'started', manifest: producer.manifest(), head: producer.head(), seeded: producer.seeded }),
    error => post({ type: 'fatal', message: (error as Error).message }),
);
