import { lazy } from 'react';
import { Navigate, type RouteObject, useSearchParams } from 'react-router';
import { RequireRole } from './auth/require-role';
import { RequireSession } from './auth/require-session';
import { ADMIN_ROLES, STAFF_ROLES } from './auth/use-session';
import { VisitorsOnly } from './auth/visitors-only';
import { loadLoginPage, loadWelcomePage } from './first-screen';
import { AppLayout } from './shell/app-layout';
import type { RouteHandle } from './shell/route-handle';

// One chunk per screen: a visitor on Login never downloads the bulk wizard.
const WelcomePage = lazy(loadWelcomePage);
const PlansPage = lazy(() => import('./screens/plans/plans-page'));
const SignUpPage = lazy(() => import('./screens/auth/sign-up-page'));
const ConfirmEmailPage = lazy(() => import('./screens/auth/confirm-email-page'));
const VerifyEmailPage = lazy(() => import('./screens/auth/verify-email-page'));
const LoginPage = lazy(loadLoginPage);
const ForgotPage = lazy(() => import('./screens/auth/forgot-page'));
const LinkSentPage = lazy(() => import('./screens/auth/link-sent-page'));
const ResetPage = lazy(() => import('./screens/auth/reset-page'));
const CallbackPage = lazy(() => import('./screens/auth/callback-page'));
const AccountInfoPage = lazy(() => import('./screens/account/account-info-page'));
const BulkPage = lazy(() => import('./screens/bulk/bulk-page'));
const ExportPage = lazy(() => import('./screens/export/export-page'));
const FileDetailPage = lazy(() => import('./screens/file-detail/file-detail-page'));
const ApiPage = lazy(() => import('./screens/api/api-page'));
const FaqsPage = lazy(() => import('./screens/info/faqs-page'));
const TermsPage = lazy(() => import('./screens/info/terms-page'));
const RefundPage = lazy(() => import('./screens/info/refund-page'));
const PrivacyPage = lazy(() => import('./screens/info/privacy-page'));
const TroubleshootingPage = lazy(() => import('./screens/info/troubleshooting-page'));
const ContactPage = lazy(() => import('./screens/info/contact-page'));
const AdminPage = lazy(() => import('./screens/admin/admin-page'));
const AuditPage = lazy(() => import('./screens/admin/audit-page'));
const UsersPage = lazy(() => import('./screens/users/users-page'));
const AddUserPage = lazy(() => import('./screens/users/add-user-page'));
const EditUserPage = lazy(() => import('./screens/users/edit-user-page'));
const SuppressionPage = lazy(() => import('./screens/suppression/suppression-page'));
const WebhooksPage = lazy(() => import('./screens/webhooks/webhooks-page'));
const PhoneLogPage = lazy(() => import('./screens/phone-log/phone-log-page'));
const ClientPerformancePage = lazy(() => import('./screens/client-performance/client-performance-page'));
const UploadExistingPage = lazy(() => import('./screens/upload-existing/upload-existing-page'));
const NotFoundPage = lazy(() => import('./screens/info/not-found-page'));
const PurchasePage = lazy(() => import('./screens/purchase/purchase-page'));
const CardPage = lazy(() => import('./screens/card/card-page'));
const CardLinkPage = lazy(() => import('./screens/card/card-link-page'));
const AuthenticatePage = lazy(() => import('./screens/authenticate/authenticate-page'));

const visitor = (element: React.ReactNode) => <VisitorsOnly>{element}</VisitorsOnly>;
const member = (element: React.ReactNode) => <RequireSession>{element}</RequireSession>;
/** Signed in with one of these roles, else sent to `/` (the service refuses such calls regardless). */
const staff = (roles: readonly string[], element: React.ReactNode) =>
  member(<RequireRole roles={roles}>{element}</RequireRole>);
const handle = (value: RouteHandle) => value;

/** `/card?grant=...` is a card link (`scrub card add`): no session needed; plain `/card` is the member's page. */
function CardRoute() {
  const [params] = useSearchParams();
  return params.get('grant') ? <CardLinkPage /> : member(<CardPage />);
}

/** The seeds' route table: every screen is a child of one shell. */
export const routes: RouteObject[] = [
  {
    element: <AppLayout />,
    children: [
      { path: '/', element: <WelcomePage />, handle: handle({ hideFooter: true }) },
      { path: '/home', element: <WelcomePage />, handle: handle({ hideFooter: true }) },
      { path: '/login', element: visitor(<LoginPage />), handle: handle({ hideFooterLinks: true }) },
      { path: '/forgot', element: visitor(<ForgotPage />) },
      { path: '/resetPassword', element: visitor(<ResetPage />) },
      { path: '/linkSent', element: visitor(<LinkSentPage />) },
      {
        path: '/signup',
        element: visitor(<SignUpPage />),
        handle: handle({ bare: true, hideFooterLinks: true }),
      },
      { path: '/verifyEmail', element: visitor(<VerifyEmailPage />) },
      { path: '/callback', element: <CallbackPage /> },
      { path: '/confirmEmail', element: <ConfirmEmailPage />, handle: handle({ bare: true }) },
      { path: '/accountInfo', element: member(<AccountInfoPage />) },
      { path: '/purchase', element: member(<PurchasePage />) },
      { path: '/card', element: <CardRoute /> },
      { path: '/authenticate', element: <AuthenticatePage /> },
      { path: '/users', element: staff(STAFF_ROLES, <UsersPage />) },
      { path: '/add', element: staff(STAFF_ROLES, <AddUserPage />) },
      { path: '/edit/:userId', element: staff(STAFF_ROLES, <EditUserPage />) },
      { path: '/admin', element: staff(ADMIN_ROLES, <AdminPage />) },
      { path: '/audit', element: staff(['Super Admin'], <AuditPage />) },
      { path: '/uploadexisting', element: member(<UploadExistingPage />) },
      { path: '/suppression', element: member(<SuppressionPage />) },
      { path: '/webhooks', element: member(<WebhooksPage />) },
      { path: '/phonelog', element: member(<PhoneLogPage />) },
      { path: '/dashboard', element: member(<ClientPerformancePage />) },
      { path: '/bulk', element: member(<BulkPage />) },
      { path: '/export', element: member(<ExportPage />) },
      { path: '/apidoc', element: member(<ApiPage />) },
      { path: '/getapi', element: <Navigate to="/apidoc" replace /> },
      { path: '/fileinfo', element: <FileDetailPage /> },
      { path: '/faqs', element: <FaqsPage /> },
      { path: '/terms', element: <TermsPage /> },
      { path: '/plans', element: <PlansPage />, handle: handle({ hideFooterLinks: true }) },
      { path: '/RefundPolicy', element: <RefundPage /> },
      { path: '/privacypolicy', element: <PrivacyPage /> },
      { path: '/contact', element: <ContactPage /> },
      { path: '/troubleshooting', element: <TroubleshootingPage /> },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];
