function __eid-testserver_should_offer_completions_for_flags_or_options -a expected_commands
    set -l non_repeating_flags_or_options $argv[2..]
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __eid-testserver_parse_tokens
    test "$commands" = "$expected_commands"; and return $non_repeating_flags_or_options_absent
end

function __eid-testserver_should_offer_completions_for_positional -a expected_commands positional_index_comparison expected_positional_index
    set -l non_repeating_flags_or_options
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __eid-testserver_parse_tokens
    test "$commands" = "$expected_commands" -a \( "$positional_index" "$positional_index_comparison" "$expected_positional_index" \)
end

function __eid-testserver_parse_tokens -S
    set -l unparsed_tokens (__eid-testserver_tokens -pc)
    switch $unparsed_tokens[1]
    case 'eid-testserver'
        __eid-testserver_parse_subcommand 0 'h/help'
        switch $unparsed_tokens[1]
        case 'serve'
            __eid-testserver_parse_subcommand 0 'pki=' 'tls-certificate=' 'tls-key=' 'host=' 'port=' 'attributes=' 'transaction-info=' 'psk' 'max-body=' 'slow-delay=' 'max-connections=' 'max-sessions=' 'client-port=' 'log-requests' 'record-paos=' 'cvca-generation=' 'eac1-links-from=' 'h/help'
        case 'pki'
            __eid-testserver_parse_subcommand 0 'out=' 'origin=' 'h/help'
        case 'help'
            __eid-testserver_parse_subcommand -r 1 
        end
    end
end

function __eid-testserver_tokens
    if test (string split -m 1 -f 1 -- . "$FISH_VERSION") -gt 3
        commandline --tokens-raw $argv
    else
        commandline -o $argv
    end
end

function __eid-testserver_parse_subcommand -S -a positional_count
    argparse -s r -- $argv
    set -l option_specs $argv[2..]
    set -l is_repeating_positional $_flag_r
    set -el _flag_r
    set -a commands $unparsed_tokens[1]
    set positional_index 0
    while true
        set -e unparsed_tokens[1]
        argparse -sn "$commands" $option_specs -- $unparsed_tokens 2> /dev/null
        set unparsed_tokens $argv
        set positional_index (math $positional_index + 1)
        for non_repeating_flag_or_option in $non_repeating_flags_or_options
            if set -ql "_flag_$(string replace -a - _ -- $non_repeating_flag_or_option)"
                set non_repeating_flags_or_options_absent 1
                break
            end
        end
        test (count $unparsed_tokens) -eq 0 -o \( -z "$is_repeating_positional" -a "$positional_index" -gt "$positional_count" \) && break
    end
end

function __eid-testserver_complete_directories
    set -l token (commandline -t)
    string match -- '*/' $token
    set -l subdirs $token*/
    printf %s\n $subdirs
end

function __eid-testserver_custom_completion
    set -x SAP_SHELL fish
    set -x SAP_SHELL_VERSION $FISH_VERSION
    set -l tokens (__eid-testserver_tokens -p)
    if test -z "$(__eid-testserver_tokens -t)"
        set -l index (count (__eid-testserver_tokens -pc))
        set tokens $tokens[..$index] \'\' $tokens[(math $index + 1)..]
    end
    command $tokens[1] $argv $tokens
end

complete -c 'eid-testserver' -f
complete -c 'eid-testserver' -n '__eid-testserver_should_offer_completions_for_flags_or_options "eid-testserver" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'eid-testserver' -n '__eid-testserver_should_offer_completions_for_positional "eid-testserver" -eq 1' -fa 'serve' -d 'Serve the eService and the eID server over HTTPS.'
complete -c 'eid-testserver' -n '__eid-testserver_should_offer_completions_for_positional "eid-testserver" -eq 1' -fa 'pki' -d 'Write a fresh test PKI: TLS, CVCA, DV and AT with keys, certificate description, CSCA, a matching card.'
complete -c 'eid-testserver' -n '__eid-testserver_should_offer_completions_for_positional "eid-testserver" -eq 1' -fa 'help' -d 'Show subcommand help information.'
complete -c 'eid-testserver' -n '__eid-testserver_should_offer_completions_for_flags_or_options "eid-testserver serve" pki' -l 'pki' -d 'A directory written by `eid-testserver pki` (default: fresh TLS credentials).' -rfka ''
complete -c 'eid-testserver' -n '__eid-testserver_should_offer_completions_for_flags_or_options "eid-testserver serve" tls-certificate' -l 'tls-certificate' -d 'A TLS certificate (PEM) to serve instead of a fresh one, e.g. an expired one or one of your CA; certificates after it in the file are sent as its chain; the certificate description lists its hash. Not with --pki; needs --tls-key.' -rfka ''
complete -c 'eid-testserver' -n '__eid-testserver_should_offer_completions_for_flags_or_options "eid-testserver serve" tls-key' -l 'tls-key' -d 'The private key (PEM) of --tls-certificate.' -rfka ''
complete -c 'eid-testserver' -n '__eid-testserver_should_offer_completions_for_flags_or_options "eid-testserver serve" host' -l 'host' -d 'The address to listen on.' -rfka ''
complete -c 'eid-testserver' -n '__eid-testserver_should_offer_completions_for_flags_or_options "eid-testserver serve" port' -l 'port' -d 'The port to listen on (0: any free port; default 18443, with --pki the port of DIR\'s origin).' -rfka ''
complete -c 'eid-testserver' -n '__eid-testserver_should_offer_completions_for_flags_or_options "eid-testserver serve" attributes' -l 'attributes' -d 'The data every session asks for: comma-separated SDK names (GivenNames, FamilyName, DateOfBirth, Address, …), TR-03127 words or DGn; a trailing ? makes one optional (default: every readable data group, required; with every one optional, EAC1 has no RequiredCHAT).' -rfka ''
complete -c 'eid-testserver' -n '__eid-testserver_should_offer_completions_for_flags_or_options "eid-testserver serve" transaction-info' -l 'transaction-info' -d 'Text every session\'s EAC1 carries as TransactionInfo, which the client shows the user.' -rfka ''
complete -c 'eid-testserver' -n '__eid-testserver_should_offer_completions_for_flags_or_options "eid-testserver serve" psk' -l 'psk' -d 'Every session uses TLS-PSK for the PAOS channel (RSA-PSK; the TcToken carries the key).'
complete -c 'eid-testserver' -n '__eid-testserver_should_offer_completions_for_flags_or_options "eid-testserver serve" max-body' -l 'max-body' -d 'The largest request body in bytes (larger: 413).' -rfka ''
complete -c 'eid-testserver' -n '__eid-testserver_should_offer_completions_for_flags_or_options "eid-testserver serve" slow-delay' -l 'slow-delay' -d 'Seconds the `slow` fault delays each PAOS answer.' -rfka ''
complete -c 'eid-testserver' -n '__eid-testserver_should_offer_completions_for_flags_or_options "eid-testserver serve" max-connections' -l 'max-connections' -d 'Connections open at once at most; one more is closed as soon as it is accepted.' -rfka ''
complete -c 'eid-testserver' -n '__eid-testserver_should_offer_completions_for_flags_or_options "eid-testserver serve" max-sessions' -l 'max-sessions' -d 'Sessions running at once at most; beyond them a session not started 5 s after its TcToken gives way, else a TcToken request gets 503 with Retry-After (a session not started within 30 s, or idle for 120 s, times out).' -rfka ''
complete -c 'eid-testserver' -n '__eid-testserver_should_offer_completions_for_flags_or_options "eid-testserver serve" client-port' -l 'client-port' -d 'The port of the eID client the start page\'s login link calls (http://127.0.0.1:PORT/eID-Client).' -rfka ''
complete -c 'eid-testserver' -n '__eid-testserver_should_offer_completions_for_flags_or_options "eid-testserver serve" log-requests' -l 'log-requests' -d 'Log each request to standard error: the address it came from (through an HTTP proxy, the proxy\'s outgoing address), whether its connection resumed a TLS session, its method and its path without the query.'
complete -c 'eid-testserver' -n '__eid-testserver_should_offer_completions_for_flags_or_options "eid-testserver serve" record-paos' -l 'record-paos' -d 'Write every PAOS request body a client sends to DIR/SESSION-NN.xml (NN from 01), for tests that check what the client sent.' -rfka ''
complete -c 'eid-testserver' -n '__eid-testserver_should_offer_completions_for_flags_or_options "eid-testserver serve" cvca-generation' -l 'cvca-generation' -d 'A CVCA link chain (TR-03124-2 module C3): the DV and AT under generation S (1 to 9) of the test CVCA series DEEIDTESTLK0000N; a card trusting an older generation needs the link certificates (`eid-test-pki cvca --generation N` writes one).' -rfka ''
complete -c 'eid-testserver' -n '__eid-testserver_should_offer_completions_for_flags_or_options "eid-testserver serve" eac1-links-from' -l 'eac1-links-from' -d 'With --cvca-generation: EAC1 carries the link certificates from generation B on (1: the full chain, S: none); older ones come in EAC2 when the client names an older CAR (default 1).' -rfka ''
complete -c 'eid-testserver' -n '__eid-testserver_should_offer_completions_for_flags_or_options "eid-testserver serve" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'eid-testserver' -n '__eid-testserver_should_offer_completions_for_flags_or_options "eid-testserver pki" out' -l 'out' -d 'The directory to write (created if missing).' -rfka ''
complete -c 'eid-testserver' -n '__eid-testserver_should_offer_completions_for_flags_or_options "eid-testserver pki" origin' -l 'origin' -d 'The origin the server is reached at.' -rfka ''
complete -c 'eid-testserver' -n '__eid-testserver_should_offer_completions_for_flags_or_options "eid-testserver pki" h help' -s 'h' -l 'help' -d 'Show help information.'
