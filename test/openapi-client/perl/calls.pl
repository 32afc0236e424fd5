#!/usr/bin/env perl
# A client in another language, built from the package's OpenAPI document at run time: Perl's
# OpenAPI::Client (Debian's libopenapi-client-perl) reads GET $PLATFORM_URL/openapi.json and makes
# a method per operationId. Through those methods alone, against the standalone server, it gets a
# server token (requestAccessToken, grant_type none), lists the packages (getProducts), gets a
# ticket for anna to the demo site (generateTicket), exchanges it for a user token
# (requestAccessToken, grant_type ticket) and reads the signed-in user (getSignedInUser).
# Everything but the server's URL comes from GET $PLATFORM_URL/__admin/demo: the client named
# "Demo site" and the user named "anna".
#
# Each answer is checked against the document too (JSON::Validator's validate_response). One line
# per step, `<operationId>[ <grant>]: <status> ...`, then `ok`; on a failure a line with the step,
# its status and the answer's `code` (or what the document's schemas refused), and exit status 1.
# Never a token, ticket or secret.
#
# By hand (after `apt-get install libopenapi-client-perl` and `npm ci`):
#   npx platform-mock --port 4010
#   PLATFORM_URL=http://localhost:4010 perl test/openapi-client/perl/calls.pl
#
# The OpenAPI 3.1 meta-schema: OpenAPI::Client checks the document against it before it makes any
# method, and JSON::Validator (which it uses) looks it up as
# https://spec.openapis.org/oas/3.1/schema/2021-05-20 in the schemas bundled with it. Debian's
# libjson-validator-perl (5.14+dfsg) leaves that file out (its license is unknown), so it would
# download it, and die where there is no network. The script hands it the official OpenAPI 3.1
# meta-schema that the package's tests use already (the devDependency
# @seriousme/openapi-schema-validator, from `npm ci`) and checks the document against that instead:
# the check is made, it is not skipped.
use strict;
use warnings;

use JSON::Validator;
use Mojo::File qw(curfile);
use Mojo::JSON qw(decode_json);
use Mojo::UserAgent;
use OpenAPI::Client;

my $base = $ENV{PLATFORM_URL} or fail_with('PLATFORM_URL is not set (e.g. http://localhost:4010)');
$base =~ s{/+$}{};

my $demo   = fetch_json("$base/__admin/demo");
my ($site) = grep { $_->{name} eq 'Demo site' } @{$demo->{clients}};
my ($anna) = grep { $_->{name} eq 'anna' } @{$demo->{users}};
fail_with('/__admin/demo has no client named "Demo site"') unless $site;
fail_with('/__admin/demo has no user named "anna"')        unless $anna;

my $client = OpenAPI::Client->new(openapi_document("$base/openapi.json"));

my ($status, $server) = call(
  'requestAccessToken none',
  requestAccessToken => {
    body => {
      grant_type    => 'none',
      client_id     => $site->{client_id},
      client_secret => $site->{client_secret},
      scope         => '/api/authorization/ticket /external/product/r',
    }
  }
);
report('requestAccessToken none', $status, $server->{token_type});

($status, my $products) = call(getProducts => getProducts => {product_type => 'packages'}, $server->{access_token});
report('getProducts', $status, scalar(@{$products->{items} // []}) . ' products');

($status, my $ticket) = call(
  generateTicket => generateTicket => {body => {accountId => $anna->{account_id}, clientId => $site->{client_id}}},
  $server->{access_token}
);
report('generateTicket', $status);

($status, my $user) = call(
  'requestAccessToken ticket',
  requestAccessToken => {
    body => {
      grant_type    => 'ticket',
      ticket        => $ticket->{ticket},
      client_id     => $site->{client_id},
      client_secret => $site->{client_secret},
    }
  }
);
report('requestAccessToken ticket', $status, $user->{token_type});

($status, my $me) = call(getSignedInUser => getSignedInUser => {}, $user->{access_token});
report('getSignedInUser', $status, $me->{email});

print "ok\n";
exit 0;

# The document as OpenAPI::Client's validator, checked against the OpenAPI 3.1 meta-schema that
# npm ci installs (see the header), with the coercion OpenAPI::Client sets by default
# (booleans,numbers,strings), which applies to the check of the answers as well.
sub openapi_document {
  my ($url)    = @_;
  my $metafile = curfile->dirname->dirname->dirname->dirname->child(
    qw(node_modules @seriousme openapi-schema-validator schemas v3.1 schema.json));
  fail_with("$metafile is missing: run npm ci") unless -r $metafile;
  my $meta = decode_json($metafile->slurp);
  my $jv   = JSON::Validator->new(coerce => 'booleans,numbers,strings');
  $jv->store->add($meta->{'$id'} => $meta);
  my $schema = $jv->schema($url)->schema;
  $schema->specification($meta->{'$id'});

  # JSON::Validator 5.14 remembers what it checked by the addresses of the data and of the schema,
  # and the schemas it builds for a $ref are copies that live only while they are checked: a
  # later copy at a freed one's address takes its result. Against the 3.1 meta-schema's if/then
  # (a header or a reference, say) a valid document is then refused, at random (its issue #272;
  # seen here once in about eight runs). That memory guards against data that contains itself,
  # which a JSON document cannot: the script checks the document with it off, the same check
  # OpenAPI::Client makes, and hands the client the result; the answers are checked with it off too.
  $schema->recursive_data_protection(0);
  my $check = $schema->new(store => $schema->store, _refs => {}, recursive_data_protection => 0)
    ->coerce('numbers,strings')->resolve($schema->specification);
  $schema->errors([$check->validate($schema->resolve->data)]);
  return $schema;
}

# Calls an operation through its generated method, with the bearer token when one is given, and
# answers the status and JSON body of a 2xx answer that the document's schema accepts; anything
# else ends the script.
sub call {
  my ($step, $operation_id, $params, $token) = @_;

  # The document declares the bearer token as a security scheme, which OpenAPI::Client does not
  # send: its after_build_tx event is where a request gets such a header.
  $client->once(after_build_tx => sub { $_[1]->req->headers->authorization("Bearer $token") }) if defined $token;
  my $tx     = $client->$operation_id($params);
  my $res    = $tx->res;
  my $status = $res->code;
  my $body   = $res->json;
  if ($status && $status =~ /^2\d\d$/ && ref $body eq 'HASH') {

    # The answer must be what the document says it is, by the same validator.
    my ($route) = grep { ($_->{operation_id} // '') eq $operation_id } $client->validator->routes->each;
    my @errors  = $client->validator->validate_response(
      [@$route{qw(method path)}, $status],
      {
        body   => sub { +{exists => 1, value => $body, content_type => $res->headers->content_type} },
        header => sub { my $value = $res->headers->header($_[0]); +{exists => defined $value, value => $value} },
      }
    );
    fail_with("$step: $status, not what the document says: " . join '; ', map {"$_"} @errors)
      if @errors;
    return ($status, $body);
  }

  fail_with("$step: no answer (" . ($tx->error->{message} // 'unknown error') . ')') unless $status;

  # OpenAPI::Client refuses a request the document's schemas refuse, without sending it, with a
  # made-up 400 answer { errors: [{ path, message }] } (the platform's errors have a code).
  if (ref $body eq 'HASH' && ref $body->{errors} eq 'ARRAY' && !defined $body->{code}) {
    fail_with("$step: not sent, " . join '; ', map {"$_->{path}: $_->{message}"} @{$body->{errors}});
  }
  fail_with("$step: $status " . (ref $body eq 'HASH' && defined $body->{code} ? $body->{code} : 'no code'));
}

sub report { print join(' ', "$_[0]:", grep {defined} @_[1 .. $#_]), "\n" }

sub fetch_json {
  my ($url) = @_;
  my $tx = Mojo::UserAgent->new->get($url);
  fail_with("GET $url: " . ($tx->res->code // $tx->error->{message})) unless ($tx->res->code // 0) == 200;
  return $tx->res->json;
}

sub fail_with {
  print "$_[0]\n";
  exit 1;
}
