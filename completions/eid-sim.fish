function __eid-sim_should_offer_completions_for_flags_or_options -a expected_commands
    set -l non_repeating_flags_or_options $argv[2..]
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __eid-sim_parse_tokens
    test "$commands" = "$expected_commands"; and return $non_repeating_flags_or_options_absent
end

function __eid-sim_should_offer_completions_for_positional -a expected_commands positional_index_comparison expected_positional_index
    set -l non_repeating_flags_or_options
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __eid-sim_parse_tokens
    test "$commands" = "$expected_commands" -a \( "$positional_index" "$positional_index_comparison" "$expected_positional_index" \)
end

function __eid-sim_parse_tokens -S
    set -l unparsed_tokens (__eid-sim_tokens -pc)
    switch $unparsed_tokens[1]
    case 'eid-sim'
        __eid-sim_parse_subcommand 0 'vpcd=' 'pin=' 'can=' 'puk=' 'pin-retries=' 'puk-uses-left=' 'transport-pin' 'no-transport-pin' 'deactivated' 'no-deactivated' 'card-access=' 'profile=' 'cvca=+' 'date=' 'trace' 'ifd' 'ifd-listen=' 'announce-to=' 'ifd-name=' 'ifd-state-dir=' 'paired-dir=' 'pairing-code=' 'pairing' 'ifd-id-pem' 'ifd-pinpad' 'ifd-pin=' 'ifd-can=' 'ifd-puk=' 'ifd-new-pin=' 'ifd-vanish-after-transmits=' 'ifd-stall-after-transmits=' 'ifd-remove-card-after-transmits=' 'h/help'
        switch $unparsed_tokens[1]
        case 'help'
            __eid-sim_parse_subcommand -r 1 
        end
    end
end

function __eid-sim_tokens
    if test (string split -m 1 -f 1 -- . "$FISH_VERSION") -gt 3
        commandline --tokens-raw $argv
    else
        commandline -o $argv
    end
end

function __eid-sim_parse_subcommand -S -a positional_count
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

function __eid-sim_complete_directories
    set -l token (commandline -t)
    string match -- '*/' $token
    set -l subdirs $token*/
    printf %s\n $subdirs
end

function __eid-sim_custom_completion
    set -x SAP_SHELL fish
    set -x SAP_SHELL_VERSION $FISH_VERSION
    set -l tokens (__eid-sim_tokens -p)
    if test -z "$(__eid-sim_tokens -t)"
        set -l index (count (__eid-sim_tokens -pc))
        set tokens $tokens[..$index] \'\' $tokens[(math $index + 1)..]
    end
    command $tokens[1] $argv $tokens
end

complete -c 'eid-sim' -f
complete -c 'eid-sim' -n '__eid-sim_should_offer_completions_for_flags_or_options "eid-sim" vpcd' -l 'vpcd' -d 'Where vpcd listens (default 127.0.0.1:35963).' -rfka ''
complete -c 'eid-sim' -n '__eid-sim_should_offer_completions_for_flags_or_options "eid-sim" pin' -l 'pin' -d 'The PIN: 6 digits, or 5 with --transport-pin (default 123456, or 12345).' -rfka ''
complete -c 'eid-sim' -n '__eid-sim_should_offer_completions_for_flags_or_options "eid-sim" can' -l 'can' -d 'The CAN: 6 digits (default 500540).' -rfka ''
complete -c 'eid-sim' -n '__eid-sim_should_offer_completions_for_flags_or_options "eid-sim" puk' -l 'puk' -d 'The PUK: 10 digits (default 9876543210).' -rfka ''
complete -c 'eid-sim' -n '__eid-sim_should_offer_completions_for_flags_or_options "eid-sim" pin-retries' -l 'pin-retries' -d 'PIN attempts left, 0...3 (default 3).' -rfka ''
complete -c 'eid-sim' -n '__eid-sim_should_offer_completions_for_flags_or_options "eid-sim" puk-uses-left' -l 'puk-uses-left' -d 'How often the PUK can still unblock the PIN, 0...10 (default 10).' -rfka ''
complete -c 'eid-sim' -n '__eid-sim_should_offer_completions_for_flags_or_options "eid-sim" transport-pin' -l 'transport-pin' -d 'The PIN is a 5-digit transport PIN that must be changed first.'
complete -c 'eid-sim' -n '__eid-sim_should_offer_completions_for_flags_or_options "eid-sim" no-transport-pin' -l 'no-transport-pin' -d 'The PIN is a 5-digit transport PIN that must be changed first.'
complete -c 'eid-sim' -n '__eid-sim_should_offer_completions_for_flags_or_options "eid-sim" deactivated' -l 'deactivated' -d 'The eID function is switched off.'
complete -c 'eid-sim' -n '__eid-sim_should_offer_completions_for_flags_or_options "eid-sim" no-deactivated' -l 'no-deactivated' -d 'The eID function is switched off.'
complete -c 'eid-sim' -n '__eid-sim_should_offer_completions_for_flags_or_options "eid-sim" card-access' -l 'card-access' -d 'Replaces EF.CardAccess with these bytes (for cards that answer garbage).' -rfka ''
complete -c 'eid-sim' -n '__eid-sim_should_offer_completions_for_flags_or_options "eid-sim" profile' -l 'profile' -d 'A JSON card profile; options override its fields.' -rfka ''
complete -c 'eid-sim' -n '__eid-sim_should_offer_completions_for_flags_or_options "eid-sim"' -l 'cvca' -d 'A CVCA certificate (DER file) Terminal Authentication trusts; repeatable, the current one first (default: the project\'s test CVCA).' -rfka ''
complete -c 'eid-sim' -n '__eid-sim_should_offer_completions_for_flags_or_options "eid-sim" date' -l 'date' -d 'The card\'s current date, against which certificates expire (default: today).' -rfka ''
complete -c 'eid-sim' -n '__eid-sim_should_offer_completions_for_flags_or_options "eid-sim" trace' -l 'trace' -d 'Print one line per APDU on stderr: instruction and status word; of the data only the CHAT of an MSE:Set AT for PACE (no secret).'
complete -c 'eid-sim' -n '__eid-sim_should_offer_completions_for_flags_or_options "eid-sim" ifd' -l 'ifd' -d 'Play a phone running AusweisApp as card reader (TR-03112-6 IFD over wss), the card in it, instead of plugging the card into vpcd.'
complete -c 'eid-sim' -n '__eid-sim_should_offer_completions_for_flags_or_options "eid-sim" ifd-listen' -l 'ifd-listen' -d 'Where the phone listens (default 127.0.0.1:0, a free port).' -rfka ''
complete -c 'eid-sim' -n '__eid-sim_should_offer_completions_for_flags_or_options "eid-sim" announce-to' -l 'announce-to' -d 'Where the UDP announcements go (default 127.0.0.1 when listening on loopback, else 255.255.255.255; port $EID_IFD_DISCOVERY_PORT or 24727).' -rfka ''
complete -c 'eid-sim' -n '__eid-sim_should_offer_completions_for_flags_or_options "eid-sim" ifd-name' -l 'ifd-name' -d 'The phone\'s name (default "eid-sim phone").' -rfka ''
complete -c 'eid-sim' -n '__eid-sim_should_offer_completions_for_flags_or_options "eid-sim" ifd-state-dir' -l 'ifd-state-dir' -d 'Where the phone keeps its TLS key and certificate, so its IFDID stays the same (default $XDG_STATE_HOME/eid-sim/ifd).' -rfka ''
complete -c 'eid-sim' -n '__eid-sim_should_offer_completions_for_flags_or_options "eid-sim" paired-dir' -l 'paired-dir' -d 'Where the paired clients\' certificates are kept (default <state dir>/paired).' -rfka ''
complete -c 'eid-sim' -n '__eid-sim_should_offer_completions_for_flags_or_options "eid-sim" pairing-code' -l 'pairing-code' -d 'Pair: the 4-digit code the phone shows (its ASCII is the TLS PSK).' -rfka ''
complete -c 'eid-sim' -n '__eid-sim_should_offer_completions_for_flags_or_options "eid-sim" pairing' -l 'pairing' -d 'Pair with a random code, printed on stderr as the phone shows it.'
complete -c 'eid-sim' -n '__eid-sim_should_offer_completions_for_flags_or_options "eid-sim" ifd-id-pem' -l 'ifd-id-pem' -d 'Announce the certificate\'s PEM as IFDID (older AusweisApp versions).'
complete -c 'eid-sim' -n '__eid-sim_should_offer_completions_for_flags_or_options "eid-sim" ifd-pinpad' -l 'ifd-pinpad' -d 'PIN-pad mode: the phone runs PACE itself with the secrets "typed on the phone" (--ifd-pin ...).'
complete -c 'eid-sim' -n '__eid-sim_should_offer_completions_for_flags_or_options "eid-sim" ifd-pin' -l 'ifd-pin' -d 'The PIN typed on the phone (or EID_SIM_IFD_PIN; default: the card\'s PIN).' -rfka ''
complete -c 'eid-sim' -n '__eid-sim_should_offer_completions_for_flags_or_options "eid-sim" ifd-can' -l 'ifd-can' -d 'The CAN typed on the phone (or EID_SIM_IFD_CAN; default: the card\'s).' -rfka ''
complete -c 'eid-sim' -n '__eid-sim_should_offer_completions_for_flags_or_options "eid-sim" ifd-puk' -l 'ifd-puk' -d 'The PUK typed on the phone (or EID_SIM_IFD_PUK; default: the card\'s).' -rfka ''
complete -c 'eid-sim' -n '__eid-sim_should_offer_completions_for_flags_or_options "eid-sim" ifd-new-pin' -l 'ifd-new-pin' -d 'The new PIN typed on the phone for IFDModifyPIN (or EID_SIM_IFD_NEW_PIN; none: the user cancels).' -rfka ''
complete -c 'eid-sim' -n '__eid-sim_should_offer_completions_for_flags_or_options "eid-sim" ifd-vanish-after-transmits' -l 'ifd-vanish-after-transmits' -d 'For tests: drop the connection (no TLS or WebSocket close) when IFDTransmit N+1 arrives.' -rfka ''
complete -c 'eid-sim' -n '__eid-sim_should_offer_completions_for_flags_or_options "eid-sim" ifd-stall-after-transmits' -l 'ifd-stall-after-transmits' -d 'For tests: stop answering when IFDTransmit N+1 arrives.' -rfka ''
complete -c 'eid-sim' -n '__eid-sim_should_offer_completions_for_flags_or_options "eid-sim" ifd-remove-card-after-transmits' -l 'ifd-remove-card-after-transmits' -d 'For tests: the card leaves the phone after IFDTransmit N is answered.' -rfka ''
complete -c 'eid-sim' -n '__eid-sim_should_offer_completions_for_flags_or_options "eid-sim" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'eid-sim' -n '__eid-sim_should_offer_completions_for_positional "eid-sim" -eq 1' -fa 'help' -d 'Show subcommand help information.'
