import { Users } from '@/components/pages/users';

export const metadata = { title: 'Users · Quarry' };

export default function UsersPage() {
  return <Users />;
}
