import NextAuth from 'next-auth';
import { consoleAuthOptions } from '@/lib/ops/console';

type Handler = (request: Request, context: { params: Promise<{ nextauth: string[] }> }) => Promise<Response>;

/** next-auth's sign-in, sign-out, session and CSRF endpoints for the console. */
const handler: Handler = (request, context) => (NextAuth(consoleAuthOptions()) as unknown as Handler)(request, context);

export { handler as GET, handler as POST };
