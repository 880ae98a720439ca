import { PageNotFound } from '@/components/not-found';

export const metadata = { title: 'Page not found · Quarry' };

/** Inside the console's frame, so the navigation stays at hand. */
export default function ConsoleNotFound() {
  return <PageNotFound />;
}
