/**
 * One client connection of the ADNL TCP server: handshake, then frames. Every protocol violation
 * ends this connection only; nothing here throws out of a socket event.
 */
import type { Socket } from 'node:net';
import { encodeAnswer, encodePong, parseInboundMessage, ANSWER_OVERHEAD } from './adnl-messages.ts';
import { encodeFrame, FrameDecoder, MAX_FRAME_PAYLOAD } from './frames.ts';
import { acceptHandshake, HANDSHAKE_LENGTH, type SessionCiphers } from './handshake.ts';
import type { ServerKey } from './server-key.ts';

/** Answers one lite query (the bytes of `adnl.message.query.query`) with the bytes of the answer. */
export type AdnlQueryHandler = (query: Buffer) => Promise<Buffer>;

export interface AdnlConnectionOptions {
    key: ServerKey;
    handler: AdnlQueryHandler;
    idleTimeoutMs: number;
    maxInFlightQueries: number;
    /** Told about failures that lose an answer (a rejecting handler, an answer too large for a frame). */
    onError: (err: unknown) => void;
}

export class AdnlConnection {
    private handshakeBytes: Buffer[] = [];
    private handshakeLength = 0;
    private session: { ciphers: SessionCiphers; decoder: FrameDecoder } | undefined;
    private inFlight = 0;
    private readonly waitingQueries: Array<{ queryId: Buffer; query: Buffer }> = [];
    private closed = false;

    constructor(
        private readonly socket: Socket,
        private readonly options: AdnlConnectionOptions,
        private readonly onClosed: (connection: AdnlConnection) => void,
    ) {
        socket.setNoDelay(true);
        socket.setTimeout(options.idleTimeoutMs);
        socket.on('timeout', () => this.close());
        socket.on('error', () => this.close());
        socket.on('close', () => this.markClosed());
        socket.on('drain', () => this.updateReading());
        socket.on('data', (chunk: Buffer) => {
            try {
                this.receive(chunk);
            } catch {
                this.close();
            }
        });
    }

    close(): void {
        this.socket.destroy();
        this.markClosed();
    }

    private markClosed(): void {
        if (this.closed) return;
        this.closed = true;
        this.waitingQueries.length = 0;
        this.onClosed(this);
    }

    private receive(chunk: Buffer): void {
        if (this.closed) return;
        if (!this.session) {
            const rest = this.collectHandshake(chunk);
            if (rest === undefined) return;
            chunk = rest;
        }
        for (const payload of this.session!.decoder.push(chunk)) this.handleMessage(payload);
    }

    /** Returns the bytes after the handshake once it is complete and valid; throws when invalid. */
    private collectHandshake(chunk: Buffer): Buffer | undefined {
        this.handshakeBytes.push(chunk);
        this.handshakeLength += chunk.length;
        if (this.handshakeLength < HANDSHAKE_LENGTH) return undefined;
        const received = Buffer.concat(this.handshakeBytes);
        this.handshakeBytes = [];
        const ciphers = acceptHandshake(received.subarray(0, HANDSHAKE_LENGTH), this.options.key);
        this.session = { ciphers, decoder: new FrameDecoder(ciphers.decryptIncoming) };
        // The empty frame tells the client the handshake was accepted.
        this.send(Buffer.alloc(0));
        return received.subarray(HANDSHAKE_LENGTH);
    }

    private handleMessage(payload: Buffer): void {
        const message = parseInboundMessage(payload);
        if (message.kind === 'ping') this.send(encodePong(message.randomId));
        else if (message.kind === 'query') this.enqueueQuery(message.queryId, message.query);
    }

    private enqueueQuery(queryId: Buffer, query: Buffer): void {
        this.waitingQueries.push({ queryId, query });
        this.startWaitingQueries();
    }

    private startWaitingQueries(): void {
        while (!this.closed && this.inFlight < this.options.maxInFlightQueries && this.waitingQueries.length > 0) {
            const { queryId, query } = this.waitingQueries.shift()!;
            this.inFlight++;
            void this.answer(queryId, query).finally(() => {
                this.inFlight--;
                this.startWaitingQueries();
            });
        }
        this.updateReading();
    }

    private async answer(queryId: Buffer, query: Buffer): Promise<void> {
        try {
            const answer = await this.options.handler(query);
            if (answer.length + ANSWER_OVERHEAD > MAX_FRAME_PAYLOAD) {
                throw new Error(`answer of ${answer.length} bytes does not fit in an ADNL frame`);
            }
            this.send(encodeAnswer(queryId, answer));
        } catch (err) {
            this.options.onError(err);
        }
    }

    private send(payload: Buffer): void {
        if (this.closed || !this.session) return;
        this.socket.write(encodeFrame(payload, this.session.ciphers.encryptOutgoing));
        this.updateReading();
    }

    /**
     * Stops reading while queries wait for a free slot or while the client is not reading its
     * answers, so a flooding client is held back by TCP instead of by our memory.
     */
    private updateReading(): void {
        if (this.closed) return;
        const hold = this.waitingQueries.length > 0 || this.socket.writableNeedDrain;
        if (hold && !this.socket.isPaused()) this.socket.pause();
        else if (!hold && this.socket.isPaused()) this.socket.resume();
    }
}
