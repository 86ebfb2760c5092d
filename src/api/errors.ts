/** An outcome other than 200, carried to the error hook that writes the `{"error": …}` body. */
export class ApiError extends Error {
    override readonly name = 'ApiError';

    constructor(
        readonly statusCode: number,
        message: string,
        readonly errorCode?: number,
        readonly details?: Record<string, unknown>,
    ) {
        super(message);
    }
}

export const notFound = (what: string) => new ApiError(404, what);
export const badRequest = (message: string) => new ApiError(400, message);

export interface ErrorBody {
    error: string;
    error_code?: number;
    details?: Record<string, unknown>;
}
