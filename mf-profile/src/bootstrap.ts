// Stand-alone development page (rsbuild dev): renders the exposed screens without the shell.
import { mountApp } from '@rotunda/ui/mount';
import ProfileCreate from './ProfileCreate';
import ProfilePage from './ProfilePage';

mountApp({ '/profile/create': ProfileCreate, '/profile/:id': ProfilePage, '*': ProfileCreate });
