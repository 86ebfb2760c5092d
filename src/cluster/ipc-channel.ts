import { ApiError } from '../api/errors.ts';
import { deserializeError, isClusterMessage, serializeError, type ClusterMessage } from './ipc-protocol.ts';

export interface ChannelEnd {
    send(message: ClusterMessage): void;
    /** Whether messages can still be sent. */
    connected(): boolean;
}

type Handler = (...args: any[]) => Promise<unknown> | unknown;

/**
 * Requests with ids over one IPC channel, both ways: `request` waits for the answer (at most
 * `timeoutMs`, else a 503), `handle` answers the other side's requests. An error thrown by a
 * handler arrives as an error of the same class (see ipc-protocol).
 */
export class IpcChannel {
    private nextId = 1;
    private readonly pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void; timer: NodeJS.Timeout }>();
    private readonly handlers = new Map<string, Handler>();

    constructor(private readonly end: ChannelEnd, private readonly peer: string) {}

    handle(method: string, handler: Handler): void {
        this.handlers.set(method, handler);
    }

    request<T>(method: string, args: unknown[], timeoutMs: number): Promise<T> {
        if (!this.end.connected()) return Promise.reject(this.unavailable(`${this.peer} is not connected`));
        const id = this.nextId++;
        return new Promise<T>((resolve, reject) => {
            const timer = setTimeout(() => {
                this.pending.delete(id);
                reject(this.unavailable(`${this.peer} did not answer within ${timeoutMs} ms`));
            }, timeoutMs);
            this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject, timer });
            try {
                this.end.send({ ne: 'request', id, method, args });
            } catch (error) {
                clearTimeout(timer);
                this.pending.delete(id);
                reject(this.unavailable(`${this.peer} cannot be reached (${(error as Error).message})`));
            }
        });
    }

    /** Feeds a message from the other side; returns false when it is not one of the channel's. */
    receive(message: unknown): boolean {
        if (!isClusterMessage(message)) return false;
        if (message.ne === 'response') {
            const waiting = this.pending.get(message.id);
            if (!waiting) return true;
            this.pending.delete(message.id);
            clearTimeout(waiting.timer);
            if (message.error) waiting.reject(deserializeError(message.error));
            else waiting.resolve(message.value);
            return true;
        }
        if (message.ne === 'request') {
            void this.answer(message.id, message.method, message.args);
            return true;
        }
        return false;
    }

    /** The other side is gone: every request waiting for it fails now. */
    disconnected(): void {
        for (const [id, waiting] of this.pending) {
            clearTimeout(waiting.timer);
            this.pending.delete(id);
            waiting.reject(this.unavailable(`${this.peer} went away before it answered`));
        }
    }

    private async answer(id: number, method: string, args: unknown[]): Promise<void> {
        let reply: ClusterMessage;
        try {
            const handler = this.handlers.get(method);
            if (!handler) throw new Error(`no handler for '${method}'`);
            reply = { ne: 'response', id, value: await handler(...args) };
        } catch (error) {
            reply = { ne: 'response', id, error: serializeError(error) };
        }
        if (!this.end.connected()) return;
        try {
            this.end.send(reply);
        } catch {
            // the other side is gone; its own disconnect handling fails its request
        }
    }

    private unavailable(reason: string): ApiError {
        return new ApiError(503, `${reason}; try again in a few seconds`);
    }
}
