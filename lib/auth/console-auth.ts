import type { NextAuthOptions } from 'next-auth';
import CredentialsProvider from 'next-auth/providers/credentials';
import { ensureReady } from '@/lib/ops/startup';
import { verifyCredentials } from '@/lib/users/service';
import { authSecret } from './session';

/** Sessions last 12 hours; the user row is checked on every API request anyway. */
const SESSION_MAX_AGE_S = 12 * 60 * 60;

/** next-auth configuration of the web console: email and password, JWT sessions. */
export function consoleAuthOptions(): NextAuthOptions {
  return {
    secret: authSecret(),
    session: { strategy: 'jwt', maxAge: SESSION_MAX_AGE_S },
    pages: { signIn: '/sign-in' },
    providers: [
      CredentialsProvider({
        name: 'Email and password',
        credentials: { email: { label: 'Email', type: 'email' }, password: { label: 'Password', type: 'password' } },
        async authorize(credentials) {
          if (!credentials?.email || !credentials.password) return null;
          const { db } = await ensureReady();
          const user = await verifyCredentials(db, credentials.email, credentials.password);
          return user ? { id: user.id, email: user.email, name: user.name || user.email, role: user.role } : null;
        },
      }),
    ],
    callbacks: {
      async jwt({ token, user }) {
        if (user) token.role = (user as { role?: string }).role;
        return token;
      },
      async session({ session, token }) {
        return { ...session, user: { ...session.user, id: token.sub, role: token.role } };
      },
    },
  };
}
