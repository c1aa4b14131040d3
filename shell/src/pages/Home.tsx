// The route '/': the landing page for visitors; signed-in users go where they belong.
import { homePathFor, useUser } from '@rotunda/session';
import { Navigate } from 'react-router';
import { Landing } from './Landing';

export function Home() {
  const user = useUser();
  return user ? <Navigate to={homePathFor(user)} replace /> : <Landing />;
}
