import { RouterProvider, createBrowserRouter } from 'react-router';
import { LoginDialogHost, SwitchAccountHost } from '../features/auth';
import { UiProvider } from '../shared/ui/UiProvider';
import { routes } from './routes';

const router = createBrowserRouter(routes);

export function App() {
  return (
    <UiProvider>
      <RouterProvider router={router} />
      <LoginDialogHost />
      <SwitchAccountHost />
    </UiProvider>
  );
}
