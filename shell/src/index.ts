// Entry of the shell; the async import lets Module Federation set up the shared singletons (React, the
// router, the session store) before any of them is evaluated.
import('./bootstrap');
