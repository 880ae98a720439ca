import type { NextAuthOptions } from 'next-auth';
import CredentialsProvider from 'next-auth/providers/credentials';
import { countUsers, verifyCredentials } from '@/lib/users/service';
import { authSecret } from '@/lib/users/session';
import { ensureReady } from './startup';

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

/** True while no console user exists (the setup page creates the first administrator). */
export async function consoleSetupRequired(): Promise<boolean> {
  const { db } = await ensureReady();
  return (await countUsers(db)) === 0;
}
