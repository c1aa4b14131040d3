// The navigation guard (docs/product.md#2-screens-and-routes): protected routes need a signed-in user;
// everyone else sees 'Access Restricted. Please login.' and is sent back to the landing page. Contributors'
// screens (moderation) tell any other member that they are for contributors only; the administrators' screen
// (/admin) likewise.
import { useIsAdmin, useIsAuthenticated, useIsContributor, useUser } from '@rotunda/session';
import { useEffect, useRef } from 'react';
import { Navigate, Outlet, useNavigate } from 'react-router';
import { AdminsOnly } from './pages/AdminsOnly';
import { ContributorsOnly } from './pages/ContributorsOnly';
import { useUi } from './ui';

export function RequireAuth() {
  const isAuthenticated = useIsAuthenticated();
  // Signing out (or the session ending) on a protected page is not an access attempt: go home quietly.
  const enteredSignedIn = useRef(isAuthenticated);
  if (isAuthenticated) return <Outlet />;
  return enteredSignedIn.current ? <Navigate to="/" replace /> : <AccessRestricted />;
}

function AccessRestricted() {
  const navigate = useNavigate();
  const showAccessAlert = useUi((s) => s.showAccessAlert);
  useEffect(() => {
    showAccessAlert();
    navigate('/', { replace: true });
  }, [navigate, showAccessAlert]);
  return null;
}

/** A user who already owns a profile has nothing to create: profile creation leads to their profile. */
export function RedirectOwnersToProfile() {
  const user = useUser();
  return user?.profile_id ? <Navigate to={`/profile/${user.profile_id}`} replace /> : <Outlet />;
}

/** Contributors' screens; inside RequireAuth, so whoever reaches this is signed in. */
export function RequireContributor() {
  return useIsContributor() ? <Outlet /> : <ContributorsOnly />;
}

/** The administrators' screen; inside RequireAuth, so whoever reaches this is signed in. */
export function RequireAdmin() {
  return useIsAdmin() ? <Outlet /> : <AdminsOnly />;
}
