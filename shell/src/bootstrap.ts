// Mounts the shell in the page.
import { mountApp } from '@rotunda/ui/mount';
import { AppRoutes } from './AppRoutes';
import './styles/global.css';

mountApp(AppRoutes);
