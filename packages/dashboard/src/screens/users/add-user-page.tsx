import { useNavigate } from 'react-router';
import { CreateAccountForm } from '../../common/create-account-form';
import { UserPageFrame } from './user-page-frame';

/** AddUser: the Admin page's Create Account, on a page of its own; back to Users once created. */
export default function AddUserPage() {
  const navigate = useNavigate();
  return (
    <UserPageFrame title="Add User">
      <CreateAccountForm onCreated={() => navigate('/users')} />
    </UserPageFrame>
  );
}
