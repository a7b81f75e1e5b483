function __eid_should_offer_completions_for_flags_or_options -a expected_commands
    set -l non_repeating_flags_or_options $argv[2..]
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __eid_parse_tokens
    test "$commands" = "$expected_commands"; and return $non_repeating_flags_or_options_absent
end

function __eid_should_offer_completions_for_positional -a expected_commands positional_index_comparison expected_positional_index
    set -l non_repeating_flags_or_options
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __eid_parse_tokens
    test "$commands" = "$expected_commands" -a \( "$positional_index" "$positional_index_comparison" "$expected_positional_index" \)
end

function __eid_parse_tokens -S
    set -l unparsed_tokens (__eid_tokens -pc)
    switch $unparsed_tokens[1]
    case 'eid'
        __eid_parse_subcommand 0 'version' 'h/help'
        switch $unparsed_tokens[1]
        case 'readers'
            __eid_parse_subcommand 0 'json' 'simulator' 'no-remote' 'watch' 'version' 'h/help'
        case 'change-pin'
            __eid_parse_subcommand 0 'json' 'simulator' 'no-remote' 'reader=' 'timeout=' 'version' 'h/help'
        case 'auth'
            __eid_parse_subcommand 1 'json' 'simulator' 'no-remote' 'reader=' 'trust-cvca=+' 'csca=' 'test-pki' 'yes' 'deny=+' 'open' 'pinentry=' 'timeout=' 'version' 'h/help'
        case 'serve'
            __eid_parse_subcommand 0 'simulator' 'no-remote' 'reader=' 'port=' 'port-file=' 'host=+' 'trust-cvca=+' 'test-pki' 'timeout=' 'pinentry=' 'version' 'h/help'
        case 'pair'
            __eid_parse_subcommand 0 'json' 'list' 'forget=' 'name=' 'address=' 'timeout=' 'version' 'h/help'
        case 'help'
            __eid_parse_subcommand -r 1 'version'
        end
    end
end

function __eid_tokens
    if test (string split -m 1 -f 1 -- . "$FISH_VERSION") -gt 3
        commandline --tokens-raw $argv
    else
        commandline -o $argv
    end
end

function __eid_parse_subcommand -S -a positional_count
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

function __eid_complete_directories
    set -l token (commandline -t)
    string match -- '*/' $token
    set -l subdirs $token*/
    printf %s\n $subdirs
end

function __eid_custom_completion
    set -x SAP_SHELL fish
    set -x SAP_SHELL_VERSION $FISH_VERSION
    set -l tokens (__eid_tokens -p)
    if test -z "$(__eid_tokens -t)"
        set -l index (count (__eid_tokens -pc))
        set tokens $tokens[..$index] \'\' $tokens[(math $index + 1)..]
    end
    command $tokens[1] $argv $tokens
end

complete -c 'eid' -f
complete -c 'eid' -n '__eid_should_offer_completions_for_flags_or_options "eid" version' -l 'version' -d 'Show the version.'
complete -c 'eid' -n '__eid_should_offer_completions_for_flags_or_options "eid" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'eid' -n '__eid_should_offer_completions_for_positional "eid" -eq 1' -fa 'readers' -d 'List card readers, the card in each and its PIN state.'
complete -c 'eid' -n '__eid_should_offer_completions_for_positional "eid" -eq 1' -fa 'change-pin' -d 'Change the PIN, or replace the 5-digit transport PIN.'
complete -c 'eid' -n '__eid_should_offer_completions_for_positional "eid" -eq 1' -fa 'auth' -d 'Authenticate to an online service with the eID card (TR-03124).'
complete -c 'eid' -n '__eid_should_offer_completions_for_positional "eid" -eq 1' -fa 'serve' -d 'Be the local eID client on 127.0.0.1:24727, for browsers and SDK clients (as AusweisApp).'
complete -c 'eid' -n '__eid_should_offer_completions_for_positional "eid" -eq 1' -fa 'pair' -d 'Pair a phone running AusweisApp as a card reader; list or forget paired phones.'
complete -c 'eid' -n '__eid_should_offer_completions_for_positional "eid" -eq 1' -fa 'help' -d 'Show subcommand help information.'
complete -c 'eid' -n '__eid_should_offer_completions_for_flags_or_options "eid readers" json' -l 'json' -d 'Print SDK messages as JSON, one object per line.'
complete -c 'eid' -n '__eid_should_offer_completions_for_flags_or_options "eid readers" simulator' -l 'simulator' -d 'Add a reader named \'Simulator\' with the software eID card in process (no pcscd needed).'
complete -c 'eid' -n '__eid_should_offer_completions_for_flags_or_options "eid readers" no-remote' -l 'no-remote' -d 'Leave paired phones (eid pair) out: PC/SC readers only.'
complete -c 'eid' -n '__eid_should_offer_completions_for_flags_or_options "eid readers" watch' -l 'watch' -d 'Keep running and report every reader or card change (READER messages) until Ctrl-C.'
complete -c 'eid' -n '__eid_should_offer_completions_for_flags_or_options "eid readers" version' -l 'version' -d 'Show the version.'
complete -c 'eid' -n '__eid_should_offer_completions_for_flags_or_options "eid readers" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'eid' -n '__eid_should_offer_completions_for_flags_or_options "eid change-pin" json' -l 'json' -d 'Print SDK messages as JSON, one object per line.'
complete -c 'eid' -n '__eid_should_offer_completions_for_flags_or_options "eid change-pin" simulator' -l 'simulator' -d 'Add a reader named \'Simulator\' with the software eID card in process (no pcscd needed).'
complete -c 'eid' -n '__eid_should_offer_completions_for_flags_or_options "eid change-pin" no-remote' -l 'no-remote' -d 'Leave paired phones (eid pair) out: PC/SC readers only.'
complete -c 'eid' -n '__eid_should_offer_completions_for_flags_or_options "eid change-pin" reader' -l 'reader' -d 'Use only this reader.' -rfka ''
complete -c 'eid' -n '__eid_should_offer_completions_for_flags_or_options "eid change-pin" timeout' -l 'timeout' -d 'Seconds to wait for a card, and for each answer.' -rfka ''
complete -c 'eid' -n '__eid_should_offer_completions_for_flags_or_options "eid change-pin" version' -l 'version' -d 'Show the version.'
complete -c 'eid' -n '__eid_should_offer_completions_for_flags_or_options "eid change-pin" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'eid' -n '__eid_should_offer_completions_for_flags_or_options "eid auth" json' -l 'json' -d 'Print SDK messages as JSON, one object per line.'
complete -c 'eid' -n '__eid_should_offer_completions_for_flags_or_options "eid auth" simulator' -l 'simulator' -d 'Add a reader named \'Simulator\' with the software eID card in process (no pcscd needed).'
complete -c 'eid' -n '__eid_should_offer_completions_for_flags_or_options "eid auth" no-remote' -l 'no-remote' -d 'Leave paired phones (eid pair) out: PC/SC readers only.'
complete -c 'eid' -n '__eid_should_offer_completions_for_flags_or_options "eid auth" reader' -l 'reader' -d 'Use only this reader.' -rfka ''
complete -c 'eid' -n '__eid_should_offer_completions_for_flags_or_options "eid auth"' -l 'trust-cvca' -d 'Trust this CVCA certificate (DER) as well; repeatable.' -rfka ''
complete -c 'eid' -n '__eid_should_offer_completions_for_flags_or_options "eid auth" csca' -l 'csca' -d 'Verify the card\'s EF.CardSecurity against this CSCA certificate (X.509, DER) as well.' -rfka ''
complete -c 'eid' -n '__eid_should_offer_completions_for_flags_or_options "eid auth" test-pki' -l 'test-pki' -d 'Trust the project\'s TEST CVCA (its key is public; tests only).'
complete -c 'eid' -n '__eid_should_offer_completions_for_flags_or_options "eid auth" yes' -l 'yes' -d 'Proceed without asking (the requested data is still shown).'
complete -c 'eid' -n '__eid_should_offer_completions_for_flags_or_options "eid auth"' -l 'deny' -d 'Do not send this optional right (SDK name, e.g. FamilyName); repeatable.' -rfka ''
complete -c 'eid' -n '__eid_should_offer_completions_for_flags_or_options "eid auth" open' -l 'open' -d 'At the end, open the address to continue at (https only) with xdg-open.'
complete -c 'eid' -n '__eid_should_offer_completions_for_flags_or_options "eid auth" pinentry' -l 'pinentry' -d 'With no terminal, ask through this pinentry program (e.g. pinentry-gnome3; GPG_TTY for a terminal one).' -rfka ''
complete -c 'eid' -n '__eid_should_offer_completions_for_flags_or_options "eid auth" timeout' -l 'timeout' -d 'Seconds to wait for a card, and for each answer.' -rfka ''
complete -c 'eid' -n '__eid_should_offer_completions_for_flags_or_options "eid auth" version' -l 'version' -d 'Show the version.'
complete -c 'eid' -n '__eid_should_offer_completions_for_flags_or_options "eid auth" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'eid' -n '__eid_should_offer_completions_for_flags_or_options "eid serve" simulator' -l 'simulator' -d 'Add a reader named \'Simulator\' with the software eID card in process (no pcscd needed).'
complete -c 'eid' -n '__eid_should_offer_completions_for_flags_or_options "eid serve" no-remote' -l 'no-remote' -d 'Leave paired phones (eid pair) out: PC/SC readers only.'
complete -c 'eid' -n '__eid_should_offer_completions_for_flags_or_options "eid serve" reader' -l 'reader' -d 'Use only this reader.' -rfka ''
complete -c 'eid' -n '__eid_should_offer_completions_for_flags_or_options "eid serve" port' -l 'port' -d 'The port to listen on (0: a free one).' -rfka ''
complete -c 'eid' -n '__eid_should_offer_completions_for_flags_or_options "eid serve" port-file' -l 'port-file' -d 'Write the port to this file once listening.' -rfka ''
complete -c 'eid' -n '__eid_should_offer_completions_for_flags_or_options "eid serve"' -l 'host' -d 'Listen on this loopback address; repeatable (default: 127.0.0.1 and ::1).' -rfka ''
complete -c 'eid' -n '__eid_should_offer_completions_for_flags_or_options "eid serve"' -l 'trust-cvca' -d 'Trust this CVCA certificate (DER) as well; repeatable.' -rfka ''
complete -c 'eid' -n '__eid_should_offer_completions_for_flags_or_options "eid serve" test-pki' -l 'test-pki' -d 'Trust the project\'s TEST CVCA (its key is public; tests only).'
complete -c 'eid' -n '__eid_should_offer_completions_for_flags_or_options "eid serve" timeout' -l 'timeout' -d 'Seconds to wait for a card, and for each answer.' -rfka ''
complete -c 'eid' -n '__eid_should_offer_completions_for_flags_or_options "eid serve" pinentry' -l 'pinentry' -d 'With no terminal and no SDK client, ask through this pinentry program (GPG_TTY for a terminal one).' -rfka ''
complete -c 'eid' -n '__eid_should_offer_completions_for_flags_or_options "eid serve" version' -l 'version' -d 'Show the version.'
complete -c 'eid' -n '__eid_should_offer_completions_for_flags_or_options "eid serve" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'eid' -n '__eid_should_offer_completions_for_flags_or_options "eid pair" json' -l 'json' -d 'Print one JSON object per line.'
complete -c 'eid' -n '__eid_should_offer_completions_for_flags_or_options "eid pair" list' -l 'list' -d 'List the paired phones.'
complete -c 'eid' -n '__eid_should_offer_completions_for_flags_or_options "eid pair" forget' -l 'forget' -d 'Forget a paired phone (its name or IFDID).' -rfka ''
complete -c 'eid' -n '__eid_should_offer_completions_for_flags_or_options "eid pair" name' -l 'name' -d 'Pair with the phone of this name (as it announces itself).' -rfka ''
complete -c 'eid' -n '__eid_should_offer_completions_for_flags_or_options "eid pair" address' -l 'address' -d 'Pair with the phone at this address without listening.' -rfka ''
complete -c 'eid' -n '__eid_should_offer_completions_for_flags_or_options "eid pair" timeout' -l 'timeout' -d 'Seconds to listen for the phone.' -rfka ''
complete -c 'eid' -n '__eid_should_offer_completions_for_flags_or_options "eid pair" version' -l 'version' -d 'Show the version.'
complete -c 'eid' -n '__eid_should_offer_completions_for_flags_or_options "eid pair" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'eid' -n '__eid_should_offer_completions_for_flags_or_options "eid help" version' -l 'version' -d 'Show the version.'
