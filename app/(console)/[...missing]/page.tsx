import { notFound } from 'next/navigation';

/**
 * Any address no other page answers: the console's own "does not exist" page, inside its frame
 * (the not-found page of a route group is only used for notFound() thrown within the group).
 */
export default function MissingPage() {
  notFound();
}
