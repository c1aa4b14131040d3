// React Router as the apps share it (router.ts): the parts they import, from the router's production build.
// A shared module is otherwise kept whole (its users are only known at run time), and the package's default
// entry is its development build; this module lets the bundler drop the rest. The import names the alias
// router.ts sets, not 'react-router', which Module Federation would route back to this very module.
// test/router.test.ts checks that every name the apps import from 'react-router' is here.
export {
  BrowserRouter,
  Link,
  Navigate,
  NavLink,
  Outlet,
  Route,
  Routes,
  useHref,
  useLocation,
  useNavigate,
  useParams,
  useSearchParams,
} from '@rotunda/react-router-production';
