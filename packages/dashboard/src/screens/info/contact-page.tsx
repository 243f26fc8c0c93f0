import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button } from '@mantine/core';
import { ContactMessageSchema } from '@scrub/contract';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { errorMessage } from '../../api/error-message';
import { EmailField, FormTextarea, FormTextInput } from '../../common/form-fields';
import { useSendContact } from '../../data/service';
import { StaticPage } from './static-page';

/**
 * The contract's rules for `POST /contact` (the seed's messages), plus seed 1's captcha: a sum to
 * type, checked here; the service limits messages per client address on its side.
 */
const ContactSchema = ContactMessageSchema.extend({
  captcha: z
    .string()
    .trim()
    .refine((answer) => Number(answer) === 7, 'Recaptcha is required'),
});
type ContactForm = z.input<typeof ContactSchema>;

export default function ContactPage() {
  const form = useForm<ContactForm>({
    resolver: zodResolver(ContactSchema),
    defaultValues: { name: '', email: '', subject: '', message: '', captcha: '' },
  });
  const send = useSendContact({ onSuccess: () => form.reset() });
  return (
    <StaticPage title="Contact us">
      <form onSubmit={form.handleSubmit(({ captcha: _, ...message }) => send.mutate(message))} noValidate>
        <FormTextInput form={form} name="name" label="Name" withAsterisk />
        <EmailField form={form} name="email" mt="sm" />
        <FormTextInput form={form} name="subject" mt="sm" label="Subject" withAsterisk />
        <FormTextarea form={form} name="message" mt="sm" label="Message" minRows={4} autosize withAsterisk />
        <FormTextInput
          form={form}
          name="captcha"
          mt="sm"
          label="Are you human? What is 3 + 4?"
          inputMode="numeric"
          withAsterisk
          maw={240}
        />
        <Button type="submit" mt="md" loading={send.isPending}>
          Send
        </Button>
      </form>
      {send.isSuccess && (
        <Alert
          color="teal"
          role="status"
          mt="md"
          title="Message sent successfully"
          data-testid="contact-sent"
        >
          {send.data.message}
        </Alert>
      )}
      {send.isError && (
        <Alert color="red" role="alert" mt="md">
          {errorMessage(send.error, 'Failed to send your message. Please try again.')}
        </Alert>
      )}
    </StaticPage>
  );
}
